import { decode, encode } from '@msgpack/msgpack';
import { type Codec, CodecError } from './codec.js';

/** MessagePack with @msgpack/msgpack's defaults: integers beyond 32 bits as uint64/int64, fractions as float64. */
export function msgpackCodec<Value>(contentType: string): Codec<Value> {
  return {
    contentType,
    binary: true,
    encode(value) {
      try {
        return encode(value);
      } catch (error) {
        throw new CodecError('unencodable-value', contentType, (error as Error).message, { cause: error });
      }
    },
    decode(data) {
      if (typeof data === 'string') {
        throw new CodecError('invalid-msgpack', contentType, 'MessagePack is binary; got text');
      }
      try {
        // The shape is the caller's promise (or the validators' job): a codec checks the encoding only.
        return decode(data) as Value;
      } catch (error) {
        throw new CodecError('invalid-msgpack', contentType, (error as Error).message, { cause: error });
      }
    },
  };
}

import { type Codec, CodecError, payloadText } from './codec.js';

/** JSON text; encodes to a string. */
export function jsonCodec<Value>(contentType: string): Codec<Value> {
  return {
    contentType,
    binary: false,
    encode(value) {
      const text: string | undefined = JSON.stringify(value);
      if (text === undefined)
        throw new CodecError('unencodable-value', contentType, 'the value has no JSON form');
      return text;
    },
    decode(data) {
      const text = payloadText(data, contentType);
      try {
        // The shape is the caller's promise (or the validators' job): a codec checks the encoding only.
        return JSON.parse(text) as Value;
      } catch (error) {
        throw new CodecError('invalid-json', contentType, (error as Error).message, { cause: error });
      }
    },
  };
}

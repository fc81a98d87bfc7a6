import { type Codec, payloadText } from './codec.js';

/** Plain UTF-8 text, for text payloads the spec describes as strings. */
export function textCodec(contentType: string): Codec<string> {
  return {
    contentType,
    binary: false,
    encode: (value) => value,
    decode: (data) => payloadText(data, contentType),
  };
}

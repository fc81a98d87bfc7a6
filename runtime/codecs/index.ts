export {
  type ChannelCodecs,
  type Codec,
  CodecError,
  type CodecErrorReason,
  type EncodedPayload,
  payloadText,
} from './codec.js';
export { type CodecKind, codecKind, mediaType } from './content-types.js';
export { type CsvLayout, type CsvSample, csvCodec } from './csv.js';
export { jsonCodec } from './json.js';
export { msgpackCodec } from './msgpack.js';
export { textCodec } from './text.js';

/** What every codec shares: the encoded form, the interface and the one error class of all of them. */

/** A payload as it travels: text for the text formats, bytes for the binary ones. */
export type EncodedPayload = string | Uint8Array;

export interface Codec<Value> {
  readonly contentType: string;
  /** Binary encodings travel as bytes (a WebSocket binary frame); text ones as UTF-8 text. */
  readonly binary: boolean;
  encode(value: Value): EncodedPayload;
  /** Checks the encoding, not the schema: validate the result with the validators artifact when it is untrusted. */
  decode(data: EncodedPayload): Value;
}

/** One codec per message id of a channel, each typed by the payload its message carries. */
export type ChannelCodecs<Payloads> = { readonly [MessageId in keyof Payloads]: Codec<Payloads[MessageId]> };

export type CodecErrorReason =
  | 'invalid-utf8'
  | 'invalid-json'
  | 'invalid-msgpack'
  | 'invalid-csv'
  | 'unencodable-value';

/** Raised by every codec: `reason` says what was wrong, the message says where. */
export class CodecError extends Error {
  constructor(
    readonly reason: CodecErrorReason,
    readonly contentType: string,
    message: string,
    options?: { cause: unknown },
  ) {
    super(`${contentType}: ${message}`, options);
    this.name = 'CodecError';
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a text-format payload; bytes must be valid UTF-8. */
export function payloadText(data: EncodedPayload, contentType: string): string {
  if (typeof data === 'string') return data;
  try {
    return utf8.decode(data);
  } catch (error) {
    throw new CodecError('invalid-utf8', contentType, 'the payload is not valid UTF-8', { cause: error });
  }
}

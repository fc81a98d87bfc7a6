/** Which codec serves a content type. The generators ask this at generation time, so both agree on the aliases. */
export type CodecKind = 'json' | 'msgpack' | 'csv' | 'text';

// The IANA registration first, then the names MessagePack libraries and brokers also send.
const msgpackMediaTypes = new Set([
  'application/vnd.msgpack',
  'application/msgpack',
  'application/x-msgpack',
]);

/** `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

export function codecKind(contentType: string): CodecKind | null {
  const media = mediaType(contentType);
  if (media === 'application/json' || /^application\/[^/]+\+json$/.test(media)) return 'json';
  if (msgpackMediaTypes.has(media)) return 'msgpack';
  if (media === 'text/csv') return 'csv';
  if (media.startsWith('text/')) return 'text';
  return null;
}

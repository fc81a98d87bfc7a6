// Copied by `npm run generate` from runtime/http/placeholder-url.ts. Do not edit: change runtime/ and regenerate.

/**
 * Host names reserved for documentation (RFC 2606, RFC 6761): a spec's example server lives on one of them, so a
 * client pointed at one was never told where the real service is.
 */
const reservedHost = /(^|\.)(example|invalid)$|(^|\.)example\.(com|net|org)$/i;

/**
 * Throws a message naming the option to set when `url` is a documentation placeholder, instead of a DNS failure on
 * the first request (issue 12, item 13).
 */
export function assertNotPlaceholder(url: string, option: string, owner: string): void {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new TypeError(`${owner}: ${option} ${JSON.stringify(url)} is not an absolute URL.`);
  }
  if (reservedHost.test(host)) {
    throw new TypeError(
      `${owner}: ${option} is ${url}, the spec's placeholder (a reserved example host); set ${option} to your deployment's address (npm start prints it).`,
    );
  }
}

// Which requests the target counts against the client address (the spec's `x-rate-limit.perAddress`): those that
// authenticate with no valid credential, failed grants and client authentication at the token endpoint, wrong keys at
// the consent form, and report feeds. Read from the generated routes, so a moved route moves here too.
import { routes } from '../../generated/server/routes.js';

/** A route template's path (`/reports/:reportId/feed.xml`) as a pattern for concrete paths. */
function patternOf(template: string): RegExp {
  const escaped = template
    .split('/')
    .map((segment) =>
      segment.startsWith(':')
        ? '[^/]+'
        : segment.replace(/[.*+?^${}()|[\]\\]/g, (character) => `\\${character}`),
    )
    .join('/');
  return new RegExp(`^${escaped}$`);
}

const feed = patternOf(routes.getReportFeed.url);

/** Whether `path` (below the server's base, query included or not) is `route` with method `method`. */
function is(route: { method: string; url: string }, method: string, path: string, pattern?: RegExp): boolean {
  const bare = path.split('?')[0] ?? '';
  return method.toUpperCase() === route.method && (pattern?.test(bare) ?? bare === route.url);
}

/** Requests the target counts per address whatever the credential: report feeds, the token endpoint, the consent form. */
export function alwaysAtRisk(method: string, path: string): boolean {
  return (
    is(routes.getReportFeed, method, path, feed) ||
    is(routes.oauthToken, method, path) ||
    is(routes.oauthConsent, method, path)
  );
}

/**
 * Whether the target counted this answered request against the address: an answer 401 (no valid credential, or
 * failed client authentication), a report feed, a refused grant at the token endpoint (400), a refused consent (400).
 */
export function countedByTarget(method: string, path: string, status: number): boolean {
  if (status === 401) return true;
  if (is(routes.getReportFeed, method, path, feed)) return true;
  const refused = status === 400;
  return refused && (is(routes.oauthToken, method, path) || is(routes.oauthConsent, method, path));
}

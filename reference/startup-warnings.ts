import type { StartOptions } from './start.js';

/** Settings that are unsafe outside local testing, as lines `npm start` prints before serving (issue 12, item 4). */
export function startupWarnings(options: StartOptions): string[] {
  const warnings: string[] = [];
  if (options.autoApproveConsent === true) {
    warnings.push(
      'WARNING: autoApproveConsent is on: GET /oauth/authorize grants every request without asking anyone. Local testing only.',
    );
  }
  if (options.trustProxy === true) {
    warnings.push(
      'WARNING: trustProxy is true: X-Forwarded-For is believed from any peer, so clients can choose their address. Name the proxies instead.',
    );
  }
  return warnings;
}

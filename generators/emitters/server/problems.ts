import type { Problem } from '../../problems.js';

/** A problem at an IR node's `origin` (`<file>#<pointer>`). */
export function problemAt(origin: string, message: string, severity: Problem['severity'] = 'error'): Problem {
  const hash = origin.indexOf('#');
  return {
    severity,
    file: hash === -1 ? origin : origin.slice(0, hash),
    pointer: hash === -1 ? '' : origin.slice(hash + 1),
    message,
    rule: 'emit/server',
  };
}

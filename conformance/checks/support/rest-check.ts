// `check` for the REST checks, with one addition: under the documented profile a request through an operation the
// spec inferred (its path or payload is not in the interface document) may find no such operation on the target.
// The check then has no means to judge a documented statement and is skipped, never failed or passed.
import { routes } from '../../../generated/server/routes.js';
import { errorRoles } from '../../../generated/types/errors.js';
import { formatJsonPointer } from '../../../runtime/json-pointer.js';
import { catalogue } from '../../harness/catalogue.js';
import { type CheckContext, type CheckOptions, check } from '../../harness/check.js';
import type { Exchange } from '../../harness/probe.js';
import { judgesInferred } from './rest-requirements.js';

type OperationId = keyof typeof routes;

let currentSkip: CheckContext['skip'] | null = null;

/** A check whose REST requests skip it (documented profile) when an inferred operation is missing on the target. */
export function restCheck(
  requirements: readonly string[],
  title: string,
  body: (context: CheckContext) => Promise<void>,
  options: CheckOptions = {},
): void {
  check(
    requirements,
    title,
    async (context) => {
      currentSkip = context.skip;
      try {
        await body(context);
      } finally {
        currentSkip = null;
      }
    },
    options,
  );
}

/** Where an operation is written in openapi.yaml (`openapi.yaml#/paths/~1streams/post`). */
export function operationLocation(operationId: OperationId): string {
  const { url, method } = routes[operationId];
  const path = url.replace(/:([A-Za-z]+)/g, '{$1}');
  return `openapi.yaml#${formatJsonPointer(['paths', path, method.toLowerCase()])}`;
}

const inferredOperations = new Map<OperationId, boolean>();

/** Whether the spec inferred an operation: an x-inferred on it or on its path item. */
export function isInferredOperation(operationId: OperationId): boolean {
  let inferred = inferredOperations.get(operationId);
  if (inferred === undefined) {
    const location = operationLocation(operationId);
    inferred = catalogue().some(
      (requirement) =>
        requirement.source === 'inferred' &&
        requirement.pointers.some((pointer) => location === pointer || location.startsWith(`${pointer}/`)),
    );
    inferredOperations.set(operationId, inferred);
  }
  return inferred;
}

/** An answer that says the target has no such operation (rather than no such object). */
function noSuchOperation(exchange: Exchange): boolean {
  const { status, body } = exchange.response;
  if (status === 405) return true;
  if (status !== 404) return false;
  const error =
    body !== null && typeof body === 'object' ? (body as { error?: { code?: unknown } }).error : undefined;
  return error?.code === undefined || error.code === errorRoles.routeNotFound;
}

/** Called with every answer of an operation: skips the running check when the target lacks an inferred operation. */
export function noteAnswer(operationId: OperationId, exchange: Exchange): void {
  if (judgesInferred() || currentSkip === null || !noSuchOperation(exchange)) return;
  if (!isInferredOperation(operationId)) return;
  const { method, url } = routes[operationId];
  currentSkip(`the target has no ${operationId} (${method} ${url}), an operation the spec inferred`);
}

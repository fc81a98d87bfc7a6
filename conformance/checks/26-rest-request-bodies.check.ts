import { describe } from 'vitest';
import { errorRoles } from '../../generated/types/errors.js';
import { type BodyCase, bodyCases } from './support/rest-body-cases.js';
import { noteAnswer, restCheck } from './support/rest-check.js';
import {
  createRecord,
  createReport,
  createStream,
  deleteWebhook,
  loopbackWebhookUrl,
  mapConcurrently,
  once,
  sample,
  settle,
  settled,
} from './support/rest-fixtures.js';
import {
  callUnjudged,
  expectError,
  type OperationId,
  type PathParameters,
  pathParameterNames,
} from './support/rest-http.js';
import {
  documentedAt,
  documentedExactly,
  documentedInside,
  inferredCodeRequirement,
  isDocumented,
  requirementsAt,
  unique,
} from './support/rest-requirements.js';
import { type JsonBodyOperation, jsonBodyOperations } from './support/rest-spec.js';

/** Valid values the spec's examples cannot give for this target: a webhook URL on its loopback. */
const overrides: Record<string, Readonly<Record<string, unknown>>> = {
  createWebhook: { url: loopbackWebhookUrl },
};

/** The objects whose ids fill the path parameters: a stream, a report and a draft record in it. */
const targets = once(async () => {
  const { stream } = await createStream({ title: 'Conformance request bodies stream' });
  const { report } = await createReport('Conformance request bodies report');
  const { record } = await createRecord(report.id, { samples: [sample(Date.now())] });
  const ids: PathParameters = { streamId: stream.id, reportId: report.id, recordId: record.id };
  return ids;
});

async function pathParameters(operationId: OperationId): Promise<PathParameters> {
  const names = pathParameterNames(operationId);
  if (names.length === 0) return {};
  const ids = await targets();
  return Object.fromEntries(names.map((name) => [name, ids[name] ?? '']));
}

const paramRequirement = 'INF-SCHEMAS-ERROR-RESPONSE-PROPERTIES-ERROR-PROPERTIES-PARAM';

/**
 * Whether the document states the broken constraint: a statement points at the keyword itself, or, for `type`, at
 * the field it types (the document's tables give every field's type).
 */
function documentedConstraint(keywordAt: string): boolean {
  return (
    documentedExactly(keywordAt) || (keywordAt.endsWith('/type') && documentedExactly(keywordAt.slice(0, -5)))
  );
}

/**
 * The requirements a case checks, from the catalogue entries that hold the places it touches (the operation, each
 * schema on the way, the broken keyword). A case is documented when the document states its operation, its body (a
 * statement points into the body's schema file) and the broken constraint; an inferred case names only inferred
 * requirements, so the documented profile leaves it out.
 */
function requirementsOf(operation: JsonBodyOperation, bodyCase: BodyCase): string[] {
  const missing = bodyCase.role === 'missingParameter';
  const locations = [
    operation.at,
    ...bodyCase.trail,
    bodyCase.keywordAt,
    ...(missing ? [`${operation.at}/responses/400`] : []),
  ];
  const touched = locations.flatMap((location) => requirementsAt(location));
  // A field on the way that is itself marked inferred (recordingReportId) makes the whole case inferred.
  const inferredField = bodyCase.trail.some((location) =>
    requirementsAt(location).some(
      (requirement) => !isDocumented(requirement) && requirement.pointers.includes(location),
    ),
  );
  const documented =
    documentedAt(operation.at) &&
    documentedInside(operation.body.definition.file) &&
    documentedConstraint(bodyCase.keywordAt) &&
    !inferredField;
  const code = inferredCodeRequirement(errorRoles[bodyCase.role]);
  const nestedParam = bodyCase.param === null || bodyCase.param.includes('.') ? [paramRequirement] : [];
  if (!documented)
    return unique([
      ...touched.filter((requirement) => !isDocumented(requirement)).map((requirement) => requirement.id),
      ...(code === undefined ? [] : [code]),
      ...nestedParam,
    ]);
  return unique([
    ...touched.map((requirement) => requirement.id),
    'ERR-400',
    'ERR-ENVELOPE',
    ...(missing ? ['ERR-PARAM-REQUIRED'] : []),
    ...(code === undefined ? [] : [code]),
    ...nestedParam,
  ]);
}

for (const operation of jsonBodyOperations()) {
  const operationId = operation.operationId as OperationId;
  const cases = bodyCases(operation.body, overrides[operationId] ?? {});
  // The cases of a body are independent refusals: sent together once, then judged one check each.
  const answers = once(() =>
    mapConcurrently(cases, 8, (bodyCase) =>
      settle(async () => {
        const exchange = await callUnjudged(operationId, await pathParameters(operationId), {
          body: bodyCase.body,
        });
        // An invalid webhook the target took anyway would hold one of the account's webhook slots.
        const created = exchange.response.body as { id?: unknown } | undefined;
        if (
          operationId === 'createWebhook' &&
          exchange.response.status < 300 &&
          typeof created?.id === 'string'
        )
          await deleteWebhook(created.id);
        return exchange;
      }),
    ),
  );
  describe(`request bodies of ${operationId}: each schema constraint broken once`, () => {
    cases.forEach((bodyCase, index) => {
      const code = errorRoles[bodyCase.role];
      restCheck(
        requirementsOf(operation, bodyCase),
        `${bodyCase.title}: 400 ${code}${bodyCase.param === null ? ', no param' : `, param ${bodyCase.param}`}`,
        async () => {
          const exchange = settled((await answers())[index]);
          noteAnswer(operationId, exchange);
          expectError(exchange, { code, param: bodyCase.param }, operationId);
        },
      );
    });
  });
}

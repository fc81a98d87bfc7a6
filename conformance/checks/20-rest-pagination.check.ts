import { describe } from 'vitest';
import { errorRoles } from '../../generated/types/errors.js';
import { apiPolicies, parameterDefaults } from '../../generated/types/facts.js';
import type { Report } from '../../generated/types/schemas.js';
import { expectThat } from '../harness/check.js';
import type { Exchange } from '../harness/probe.js';
import { isInferredOperation, restCheck } from './support/rest-check.js';
import {
  createRecord,
  createReport,
  createStream,
  createWebhook,
  deleteWebhooksAfterAll,
  loopbackWebhookUrl,
  once,
  sample,
} from './support/rest-fixtures.js';
import {
  call,
  type ErrorCode,
  expectError,
  expectListPage,
  expectOperationResponse,
  type OperationId,
  type PathParameters,
} from './support/rest-http.js';
import { judgesInferred } from './support/rest-requirements.js';
import { limitBounds, parameterSchema } from './support/rest-spec.js';

const { limitParameter, cursorParameter, reverseCursorParameter } = apiPolicies.pagination;
const pageSize = 10;
const createdReports = 25;
/** A walk longer than this is a cursor that never ends, not a long list: the account holds the suite's objects only. */
const maximumPages = 60;

deleteWebhooksAfterAll();

/** Every list operation (those with a default page size); under the documented profile, the documented ones. */
const listOperations = Object.keys(parameterDefaults)
  .filter((key) => key.endsWith(`.${limitParameter}`))
  .map((key) => key.slice(0, -limitParameter.length - 1) as OperationId)
  .filter((operationId) => judgesInferred() || !isInferredOperation(operationId))
  .sort();

/** 25 reports made at once, then one more after them: the newest of the list. */
const reports = once(async () => {
  const made = await Promise.all(
    Array.from(
      { length: createdReports },
      async (_, index) => (await createReport(`Conformance page ${index + 1}`)).report,
    ),
  );
  const latest = (await createReport('Conformance page latest')).report;
  return { made, latest };
});

interface ListFixture {
  parameters: PathParameters;
  /** An item of the list, for a real cursor. */
  itemId: string;
}

const webhookWithDeliveries = once(async () => {
  const { webhook } = await createWebhook({ url: loopbackWebhookUrl, events: ['webhook.test'] });
  // Test events queue deliveries, the only items a new webhook's delivery list can be given through the API; two, so
  // that the list has a second page at one item a page.
  for (let sent = 0; sent < 2; sent += 1) {
    expectOperationResponse('testWebhook', await call('testWebhook', { webhookId: webhook.id }), 201);
  }
  const deliveries = await call('listWebhookDeliveries', { webhookId: webhook.id });
  const [delivery] = expectListPage<{ id: string }>('listWebhookDeliveries', deliveries).data;
  expectThat(delivery !== undefined, 'the test event listed among the webhook deliveries', deliveries);
  return { webhookId: webhook.id, deliveryId: delivery.id };
});

/**
 * Each list operation's path parameters and one of its items, made when first needed. Every list holds at least two
 * items once its fixture is made, whatever else the target holds, so that each has a second page at one a page.
 */
const listFixtures: Readonly<Record<string, () => Promise<ListFixture>>> = {
  listReports: once(async () => ({ parameters: {}, itemId: (await reports()).latest.id })),
  listStreams: once(async () => {
    await createStream({ title: 'Conformance pagination stream, older' });
    return {
      parameters: {},
      itemId: (await createStream({ title: 'Conformance pagination stream' })).stream.id,
    };
  }),
  listRecords: once(async () => {
    const { latest } = await reports();
    await createRecord(latest.id, { samples: [sample(Date.now())] });
    const { record } = await createRecord(latest.id, { samples: [sample(Date.now())] });
    return { parameters: { reportId: latest.id }, itemId: record.id };
  }),
  listWebhooks: once(async () => {
    const { webhookId } = await webhookWithDeliveries();
    await createWebhook({ url: loopbackWebhookUrl, events: ['webhook.test'] });
    return { parameters: {}, itemId: webhookId };
  }),
  listWebhookDeliveries: once(async () => {
    const { webhookId, deliveryId } = await webhookWithDeliveries();
    return { parameters: { webhookId }, itemId: deliveryId };
  }),
};

function listFixture(operationId: OperationId): Promise<ListFixture> {
  const fixture = listFixtures[operationId];
  if (fixture === undefined) throw new Error(`no fixture for the list operation ${operationId}`);
  return fixture();
}

interface Page {
  exchange: Exchange;
  data: Report[];
  hasMore: boolean;
  nextCursor: string | null;
}

async function reportPage(query: Record<string, string | number>): Promise<Page> {
  const exchange = await call('listReports', {}, { query });
  return { exchange, ...expectListPage<Report>('listReports', exchange) };
}

/** Pages through GET /reports with `after` from the start to the page whose nextCursor is null. */
const forwardWalk = once(async () => {
  await reports();
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page = await reportPage({
      [limitParameter]: pageSize,
      ...(cursor === null ? {} : { [cursorParameter]: cursor }),
    });
    pages.push(page);
    cursor = page.nextCursor;
    expectThat(pages.length <= maximumPages, `a last page within ${maximumPages} pages`, page.exchange);
  } while (cursor !== null);
  return pages;
});

/** From the first item of the last forward page back to the start with `before`. */
const backwardWalk = once(async () => {
  const forward = await forwardWalk();
  const last = forward.at(-1);
  const start = last?.data[0]?.id;
  if (last === undefined || start === undefined) return null;
  const pages: Page[] = [];
  let cursor: string | null = start;
  while (cursor !== null) {
    const page = await reportPage({ [limitParameter]: pageSize, [reverseCursorParameter]: cursor });
    pages.push(page);
    cursor = page.nextCursor;
    expectThat(pages.length <= maximumPages, `a first page within ${maximumPages} pages`, page.exchange);
  }
  return { pages, last };
});

function firstRepeated(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

describe('pagination: walking a list of 25 reports 10 at a time', () => {
  restCheck(
    [
      'EP-CURSOR-PAGINATION',
      'EP-LIST-AFTER',
      'RES-LIST-HAS-MORE',
      'RES-LIST-NEXT-CURSOR',
      'RES-LIST-ENVELOPE',
      'EP-LIST-REPORTS',
      'EP-LIST-REPORTS-200',
    ],
    'after walks every report once, hasMore until the last page, whose nextCursor is null',
    async () => {
      const { made, latest } = await reports();
      const pages = await forwardWalk();
      const ids = pages.flatMap((page) => page.data.map((report) => report.id));
      pages.forEach((page, index) => {
        const isLast = index === pages.length - 1;
        expectThat(
          page.data.length <= pageSize,
          `at most ${limitParameter}=${pageSize} items`,
          page.exchange,
        );
        expectThat(
          page.hasMore === !isLast,
          `hasMore ${!isLast} on page ${index + 1} of ${pages.length}`,
          page.exchange,
        );
        if (isLast) expectThat(page.nextCursor === null, 'nextCursor null on the last page', page.exchange);
      });
      const repeated = firstRepeated(ids);
      const lastPage = pages.at(-1)?.exchange ?? null;
      expectThat(repeated === undefined, `no report twice in the walk (${repeated} was)`, lastPage);
      const lost = [...made, latest].filter((report) => !ids.includes(report.id));
      expectThat(
        lost.length === 0,
        `every created report in the walk (${lost.length} missing, first ${lost[0]?.id})`,
        lastPage,
      );
      expectThat(
        pages.length >= Math.ceil(createdReports / pageSize),
        `at least ${Math.ceil(createdReports / pageSize)} pages`,
        lastPage,
      );
    },
  );

  restCheck(
    ['INF-SCHEMAS-LIST-PROPERTIES-NEXTCURSOR', 'INF-SCHEMAS-LIST-PROPERTIES-DATA'],
    'full pages but the last, newest first, nextCursor the id of the last item',
    async () => {
      const { made, latest } = await reports();
      const pages = await forwardWalk();
      pages.forEach((page, index) => {
        if (index < pages.length - 1) {
          expectThat(
            page.data.length === pageSize,
            `${pageSize} items on a page that is not the last`,
            page.exchange,
          );
          expectThat(
            page.nextCursor === page.data.at(-1)?.id,
            'nextCursor the id of the page’s last item',
            page.exchange,
          );
        }
      });
      const items = pages.flatMap((page) => page.data.map((report) => ({ report, exchange: page.exchange })));
      const disorder = items.findIndex(
        (item, index) => index > 0 && (items[index - 1]?.report.createdAt ?? '') < item.report.createdAt,
      );
      expectThat(
        disorder === -1,
        `createdAt never increasing along the list (item ${disorder})`,
        items[disorder]?.exchange ?? null,
      );
      // The report made after all the others comes before each of them whose createdAt is earlier.
      const position = (id: string) => items.findIndex((item) => item.report.id === id);
      const overtaking = made.find(
        (report) => report.createdAt < latest.createdAt && position(report.id) < position(latest.id),
      );
      expectThat(
        overtaking === undefined,
        `${latest.id}, made last, listed before ${overtaking?.id}, made earlier`,
        pages[0]?.exchange ?? null,
      );
    },
  );

  restCheck(
    ['RES-REPORT-URL'],
    'each listed report carries the reportUrl it was created with (a list fills them apart from a create or GET)',
    async () => {
      const { made, latest } = await reports();
      // One page that holds them all (the newest of the account), not the walk: a walk's faults are other checks'.
      const page = await reportPage({ [limitParameter]: createdReports + 1 });
      const listed = new Map(page.data.map((report) => [report.id, report] as const));
      const moved = [...made, latest].find((report) => {
        const item = listed.get(report.id);
        return item !== undefined && item.reportUrl !== report.reportUrl;
      });
      expectThat(
        moved === undefined,
        `each listed report's reportUrl as created (${moved?.id}: ${listed.get(moved?.id ?? '')?.reportUrl}, created with ${moved?.reportUrl})`,
        page.exchange,
      );
    },
  );

  restCheck(['EP-BEFORE-CURSOR'], 'before is accepted as a cursor parameter of a list', async () => {
    const { latest } = await reports();
    await reportPage({ [reverseCursorParameter]: latest.id });
  });

  restCheck(
    ['INF-OPENAPI-COMPONENTS-PARAMETERS-BEFORE', 'INF-SCHEMAS-LIST-PROPERTIES-NEXTCURSOR'],
    'before walks back from the last page to the first without loss or repetition',
    async () => {
      const forward = await forwardWalk();
      const backward = await backwardWalk();
      if (backward === null) throw new Error('the forward walk ended on an empty page');
      const { pages, last } = backward;
      pages.forEach((page, index) => {
        const isLast = index === pages.length - 1;
        expectThat(page.data.length <= pageSize, `at most ${pageSize} items`, page.exchange);
        expectThat(
          page.hasMore === !isLast,
          `hasMore ${!isLast} going back, page ${index + 1}`,
          page.exchange,
        );
        expectThat(
          page.nextCursor === (isLast ? null : (page.data[0]?.id ?? null)),
          isLast ? 'nextCursor null on the first page' : 'nextCursor the id of the page’s first item',
          page.exchange,
        );
      });
      const rebuilt = [...pages.reverse(), last].flatMap((page) => page.data.map((report) => report.id));
      const expected = forward.flatMap((page) => page.data.map((report) => report.id));
      const differs = expected.findIndex((id, index) => rebuilt[index] !== id);
      expectThat(
        rebuilt.length === expected.length && differs === -1,
        `the same ${expected.length} reports in the same order both ways (${rebuilt.length} going back; first difference at ${differs})`,
        pages[0]?.exchange ?? null,
      );
    },
  );

  restCheck(
    ['EP-LIST-LIMIT'],
    `without ${limitParameter} a page holds the default number of items`,
    async () => {
      await reports();
      const page = await reportPage({});
      const expected = parameterDefaults['listReports.limit'];
      expectThat(
        page.data.length === expected && page.hasMore,
        `${expected} reports and hasMore (more exist)`,
        page.exchange,
      );
    },
  );
});

describe('pagination: parameters of every list operation', () => {
  const bounds = limitBounds();
  const invalid: ErrorCode = errorRoles.invalidParameter;

  restCheck(
    ['EP-LIST-LIMIT', 'ERR-400'],
    `${limitParameter} outside ${bounds.minimum}–${bounds.maximum} is refused, its bounds accepted, on every list`,
    async () => {
      for (const operationId of listOperations) {
        const { parameters } = await listFixture(operationId);
        for (const value of [bounds.minimum - 1, bounds.maximum + 1]) {
          const exchange = await call(operationId, parameters, { query: { [limitParameter]: value } });
          expectError(exchange, { code: invalid, param: limitParameter }, operationId);
        }
        for (const value of [bounds.minimum, bounds.maximum]) {
          const exchange = await call(operationId, parameters, { query: { [limitParameter]: value } });
          const page = expectListPage<unknown>(operationId, exchange);
          expectThat(page.data.length <= value, `at most ${value} items`, exchange);
        }
      }
    },
  );

  restCheck(
    ['INF-OPENAPI-X-PARAMETER-VALUES'],
    `${limitParameter} written otherwise than JSON writes an integer is refused, on every list`,
    async () => {
      const numbers = apiPolicies.parameterValues.numbers;
      expectThat(numbers === 'json', `x-parameter-values.numbers is json (it is ${numbers})`);
      // An in-range page size in the forms JavaScript's Number() also reads: a lenient deployment pages by them.
      const size = bounds.minimum + 1;
      const forms = [`${size}e0`, `0x${size.toString(16)}`, ` ${size}`, `+${size}`, `${size}.0`, `0${size}`];
      for (const operationId of listOperations) {
        const { parameters } = await listFixture(operationId);
        for (const form of forms) {
          const exchange = await call(operationId, parameters, { query: { [limitParameter]: form } });
          expectError(exchange, { code: invalid, param: limitParameter }, operationId);
        }
      }
    },
  );

  restCheck(
    [
      'EP-CURSOR-PAGINATION',
      'EP-LIST-AFTER',
      'EP-BEFORE-CURSOR',
      'RES-LIST-NEXT-CURSOR',
      'RES-LIST-HAS-MORE',
    ],
    'at one item a page, every list leads from its first item to the next and back',
    async () => {
      for (const operationId of listOperations) {
        const { parameters } = await listFixture(operationId);
        const pageOf = async (query: Record<string, string | number>) => {
          const exchange = await call(operationId, parameters, { query: { [limitParameter]: 1, ...query } });
          return { exchange, ...expectListPage<{ id: string }>(operationId, exchange) };
        };
        const first = await pageOf({});
        const firstId = first.data[0]?.id;
        expectThat(
          firstId !== undefined && first.hasMore && first.nextCursor === firstId,
          `${operationId}: one item, hasMore, and nextCursor its id (the list holds two or more)`,
          first.exchange,
        );
        const second = await pageOf({ [cursorParameter]: first.nextCursor ?? '' });
        const secondId = second.data[0]?.id;
        expectThat(
          secondId !== undefined && secondId !== firstId,
          `${operationId}: the page after ${firstId} holds another item`,
          second.exchange,
        );
        const back = await pageOf({ [reverseCursorParameter]: secondId ?? '' });
        // Another check may add an item meanwhile; then the page before is no longer the list's start.
        expectThat(
          back.data.length === 1 &&
            back.data[0]?.id === firstId &&
            back.nextCursor === (back.hasMore ? firstId : null),
          `${operationId}: the page before ${secondId} holds ${firstId}, nextCursor matching hasMore`,
          back.exchange,
        );
      }
    },
  );

  restCheck(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-PARAMETERS_EXCLUSIVE', 'INF-OPENAPI-COMPONENTS-PARAMETERS-BEFORE'],
    `${cursorParameter} and ${reverseCursorParameter} together are refused on every list`,
    async () => {
      for (const operationId of listOperations) {
        const { parameters, itemId } = await listFixture(operationId);
        const exchange = await call(operationId, parameters, {
          query: { [cursorParameter]: itemId, [reverseCursorParameter]: itemId },
        });
        expectError(exchange, { code: 'parameters_exclusive', param: reverseCursorParameter }, operationId);
      }
    },
  );

  restCheck(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-CURSOR_INVALID'],
    'a cursor that is no item of the list is refused on every list, in either direction',
    async () => {
      for (const operationId of listOperations) {
        const { parameters } = await listFixture(operationId);
        for (const name of [cursorParameter, reverseCursorParameter]) {
          const exchange = await call(operationId, parameters, {
            query: { [name]: 'conformance_no_such_item' },
          });
          expectError(exchange, { code: 'cursor_invalid', param: name }, operationId);
        }
      }
    },
  );

  restCheck(
    ['INF-SCHEMAS-COMMON-DEFS-CURSOR'],
    'a cursor longer than the Cursor schema allows is an invalid parameter',
    async () => {
      const maxLength = parameterSchema('After').number('maxLength');
      if (maxLength === undefined) throw new Error('the After parameter has no maxLength');
      const exchange = await call(
        'listReports',
        {},
        { query: { [cursorParameter]: 'c'.repeat(maxLength + 1) } },
      );
      expectError(exchange, { code: invalid, param: cursorParameter }, 'listReports');
    },
  );

  restCheck(
    [
      'INF-OPENAPI-PATHS-STREAMS-GET',
      'INF-OPENAPI-PATHS-REPORTS-REPORTID-RECORDS',
      'INF-OPENAPI-PATHS-WEBHOOKS-GET',
      'INF-OPENAPI-PATHS-WEBHOOKS-WEBHOOKID-DELIVERIES-GET',
    ],
    'every list answers with the list envelope, its newest item on the first page',
    async () => {
      for (const operationId of listOperations) {
        const { parameters, itemId } = await listFixture(operationId);
        const exchange = await call(operationId, parameters);
        const page = expectListPage<{ id: string }>(operationId, exchange);
        expectThat(
          page.data.some((item) => item.id === itemId),
          `${itemId} on the first page`,
          exchange,
        );
      }
    },
  );
});

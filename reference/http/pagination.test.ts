// Cursor pagination on every list operation of the reference service (the spec's x-pagination), through inject().
import { beforeAll, describe, expect, it } from 'vitest';
import { apiPolicies, parameterDefaults } from '../../generated/types/facts.js';
import { AccountResources, bodyOf, type ListOf, restCaller } from '../testing/account-resources.js';
import { expectProblem } from '../testing/expect-problem.js';
import { type FilledList, listFillers, listOperationIds } from '../testing/list-fillers.js';
import { responseProblem } from '../testing/response-validators.js';
import { type ServiceFixture, useServiceFixture } from '../testing/service-fixture.js';
import { parameterBounds } from '../testing/spec-document.js';

const fixture = useServiceFixture();
const { limitParameter, cursorParameter, reverseCursorParameter } = apiPolicies.pagination;
const bounds = parameterBounds(limitParameter);
const itemCount = 45;
const pageSize = 20;

type Page = ListOf<{ id: string }>;

async function fill(service: ServiceFixture, operationId: (typeof listOperationIds)[number], count: number) {
  const account = await service.createAccount('paid');
  const resources = new AccountResources(restCaller(service), account.keys.secret.key);
  const filled = await listFillers[operationId](
    { fixture: service, accountId: account.accountId, resources },
    count,
  );
  return { ...filled, token: account.keys.secret.key };
}

describe.each(listOperationIds)('%s', (operationId) => {
  let list: FilledList & { token: string };
  /** Newest first, the order of the spec's list envelope. */
  let newestFirst: string[];
  const page = async (query: Record<string, string | number>) =>
    restCaller(fixture())(operationId, { token: list.token, params: list.params, query });

  /** Follows `nextCursor` in one direction, checking the envelope of every page; returns the pages' ids. */
  async function walk(cursor: string, start: string | null): Promise<string[][]> {
    const pages: string[][] = [];
    for (let next = start; ; ) {
      const reply = await page({ [limitParameter]: pageSize, ...(next === null ? {} : { [cursor]: next }) });
      const body = bodyOf<Page>(reply, 200);
      expect(responseProblem(operationId, 200, body)).toBeNull();
      pages.push(body.data.map((item) => item.id));
      if (!body.hasMore) {
        expect(body.nextCursor).toBeNull();
        return pages;
      }
      expect(body.data).toHaveLength(pageSize);
      expect(body.nextCursor).not.toBeNull();
      next = body.nextCursor;
      if (pages.length > itemCount) throw new Error('the walk does not end');
    }
  }

  beforeAll(async () => {
    list = await fill(fixture(), operationId, itemCount);
    newestFirst = [...list.ids].reverse();
  });

  it(`walks ${itemCount} items forwards with ${cursorParameter}, without loss or repetition`, async () => {
    const pages = await walk(cursorParameter, null);
    expect(pages.map((ids) => ids.length)).toEqual([pageSize, pageSize, itemCount - 2 * pageSize]);
    expect(pages.flat()).toEqual(newestFirst);
  });

  it(`walks back from the oldest item with ${reverseCursorParameter}, without loss or repetition`, async () => {
    const oldest = newestFirst.at(-1) ?? '';
    const pages = await walk(reverseCursorParameter, oldest);
    expect([...pages.reverse().flat(), oldest]).toEqual(newestFirst);
  });

  it('returns the default page size without a limit', async () => {
    const body = bodyOf<Page>(await page({}), 200);
    expect(body.data).toHaveLength(parameterDefaults[`${operationId}.${limitParameter}`]);
    expect(body.hasMore).toBe(true);
    expect(body.nextCursor).toBe(body.data.at(-1)?.id);
  });

  const refusedLimits: Array<[string, string | number]> = [
    ['below the minimum', bounds.minimum - 1],
    ['above the maximum', bounds.maximum + 1],
    ['not a number', 'ten'],
    // x-parameter-values.numbers: json. Read as Number() reads them, each of these was a page of 10, 16 or 5.
    ...['1e1', '0x10', ' 5', '+5', '5.0', '05'].map((given): [string, string] => [
      `written ${JSON.stringify(given)}`,
      given,
    ]),
  ];
  it.each(refusedLimits)('refuses a limit %s', async (_name, given) => {
    expectProblem(await page({ [limitParameter]: given }), 'parameter_invalid', limitParameter);
  });

  it('accepts the bounds of limit', async () => {
    for (const limit of [bounds.minimum, bounds.maximum]) {
      const body = bodyOf<Page>(await page({ [limitParameter]: limit }), 200);
      expect(body.data).toHaveLength(Math.min(limit, itemCount));
    }
  });

  it(`refuses ${cursorParameter} and ${reverseCursorParameter} together`, async () => {
    const [first = '', second = ''] = newestFirst;
    const reply = await page({ [cursorParameter]: first, [reverseCursorParameter]: second });
    expectProblem(reply, 'parameters_exclusive', reverseCursorParameter);
  });

  it('refuses a cursor that is no item of the list: unknown, or of another account', async () => {
    const other = await fill(fixture(), operationId, 1);
    const known = newestFirst[0] ?? '';
    const unknown = `${known.slice(0, known.indexOf('_') + 1)}Unknown0000000000`;
    for (const parameter of [cursorParameter, reverseCursorParameter]) {
      for (const cursor of [unknown, other.ids[0] ?? '']) {
        expectProblem(await page({ [parameter]: cursor }), 'cursor_invalid', parameter);
      }
    }
  });
});

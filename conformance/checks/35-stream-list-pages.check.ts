// The stream list paged a few items at a time (issue 13): the report walk of check 20 does not reach the stream
// list's own cursor. The account's stream list is shared with the other checks, which may create streams while this
// file runs, so the walks are judged between two streams of this file's own: one made before five others, one after.
import { describe } from 'vitest';
import { apiPolicies } from '../../generated/types/facts.js';
import type { Stream } from '../../generated/types/schemas.js';
import { expectThat } from '../harness/check.js';
import type { Exchange } from '../harness/probe.js';
import { restCheck } from './support/rest-check.js';
import { createStream, once } from './support/rest-fixtures.js';
import { call, expectListPage, type ListPage } from './support/rest-http.js';
import { limitBounds } from './support/rest-spec.js';

const { limitParameter, cursorParameter, reverseCursorParameter } = apiPolicies.pagination;
const pageSize = 2;
const betweenCount = 5;
/** A walk between the two markers longer than this never reaches the other marker. */
const maximumPages = 20;
/** Several sequential requests each: room for a loaded machine. */
const slowMachine = { timeout: 60_000 };

type StreamPage = ListPage<Stream> & { exchange: Exchange };

async function streamPage(query: Record<string, string | number>): Promise<StreamPage> {
  const exchange = await call('listStreams', {}, { query });
  return { exchange, ...expectListPage<Stream>('listStreams', exchange) };
}

/** One after another: the list's order is creation order, and concurrent creations may share a millisecond. */
const streams = once(async () => {
  const make = async (title: string) => (await createStream({ title })).stream;
  const oldest = await make('Conformance stream pages: oldest');
  const between: Stream[] = [];
  for (let index = 0; index < betweenCount; index += 1)
    between.push(await make(`Conformance stream pages: ${index + 1}`));
  const newest = await make('Conformance stream pages: newest');
  return { oldest, newestFirst: between.reverse(), newest };
});

/**
 * Pages from `start` (excluded) with `cursor` until a page holds `stop`, or no page follows. `parameter` is the
 * cursor parameter; `extra` joins every request (a status filter).
 */
async function walk(
  parameter: string,
  start: string,
  stop: string,
  extra: Record<string, string> = {},
): Promise<StreamPage[]> {
  const pages: StreamPage[] = [];
  let cursor: string | null = start;
  while (cursor !== null) {
    const page = await streamPage({ [limitParameter]: pageSize, [parameter]: cursor, ...extra });
    pages.push(page);
    if (page.data.some((stream) => stream.id === stop)) break;
    cursor = page.nextCursor;
    expectThat(pages.length <= maximumPages, `${stop} within ${maximumPages} pages`, page.exchange);
  }
  return pages;
}

/** From this file's newest stream (excluded) with `after` to its oldest. */
const forwardWalk = once(async () => {
  const { oldest, newest } = await streams();
  return walk(cursorParameter, newest.id, oldest.id);
});

const idsOf = (pages: readonly StreamPage[]) => pages.flatMap((page) => page.data.map((stream) => stream.id));

/** The first id listed twice, if any. */
function repeated(ids: readonly string[]): string | undefined {
  return ids.find((id, index) => ids.indexOf(id) !== index);
}

/** Whether `expected` appear in `ids` each once and in that order (other ids may stand between them). */
function inOrder(ids: readonly string[], expected: readonly string[]): boolean {
  const positions = expected.map((id) => ids.indexOf(id));
  return positions.every(
    (position, index) =>
      position !== -1 &&
      ids.lastIndexOf(expected[index] ?? '') === position &&
      position > (positions[index - 1] ?? -1),
  );
}

/** Every page but the last full, with more after it and its cursor at the edge the walk goes on from. */
function expectFullPagesBeforeTheLast(pages: readonly StreamPage[], edge: 'first' | 'last'): void {
  pages.slice(0, -1).forEach((page, index) => {
    const edgeItem = edge === 'last' ? page.data.at(-1) : page.data[0];
    expectThat(
      page.data.length === pageSize && page.hasMore && page.nextCursor === edgeItem?.id,
      `page ${index + 1}: ${pageSize} streams, hasMore true, nextCursor the id of its ${edge} stream`,
      page.exchange,
    );
  });
}

describe(`the stream list paged ${pageSize} at a time`, () => {
  restCheck(
    [
      'EP-CURSOR-PAGINATION',
      'EP-LIST-AFTER',
      'RES-LIST-HAS-MORE',
      'RES-LIST-NEXT-CURSOR',
      'INF-OPENAPI-PATHS-STREAMS-GET',
      'INF-SCHEMAS-LIST-PROPERTIES-DATA',
      'INF-SCHEMAS-LIST-PROPERTIES-NEXTCURSOR',
    ],
    'after walks the streams newest first, each once, over full pages with more after them',
    async () => {
      const { oldest, newestFirst, newest } = await streams();
      const pages = await forwardWalk();
      const ids = idsOf(pages);
      const last = pages.at(-1)?.exchange ?? null;
      expectFullPagesBeforeTheLast(pages, 'last');
      expectThat(repeated(ids) === undefined, `no stream twice in the walk (${repeated(ids)} was)`, last);
      expectThat(!ids.includes(newest.id), `the cursor’s own stream ${newest.id} not after itself`, last);
      expectThat(
        inOrder(ids, [...newestFirst.map((stream) => stream.id), oldest.id]),
        `the ${betweenCount} streams made one after another, each once, newest first, then ${oldest.id}`,
        last,
      );
      const createdAt = pages.flatMap((page) => page.data.map((stream) => stream.createdAt));
      const rising = createdAt.findIndex((time, index) => index > 0 && (createdAt[index - 1] ?? '') < time);
      expectThat(rising === -1, `createdAt never increasing along the walk (item ${rising})`, last);
    },
    slowMachine,
  );

  restCheck(
    [
      'EP-CURSOR-PAGINATION',
      'RES-LIST-HAS-MORE',
      'RES-LIST-NEXT-CURSOR',
      'INF-OPENAPI-PATHS-STREAMS-GET',
      'INF-SCHEMAS-LIST-PROPERTIES-NEXTCURSOR',
    ],
    'the last page of the stream list: one stream, or exactly full, with hasMore false and nextCursor null',
    async () => {
      const { oldest } = await streams();
      // The rest of the list after this file's oldest stream, in large pages, to learn its last three streams.
      const tail: StreamPage[] = [];
      let cursor: string | null = oldest.id;
      while (cursor !== null && tail.length < maximumPages) {
        const page = await streamPage({ [limitParameter]: limitBounds().maximum, [cursorParameter]: cursor });
        tail.push(page);
        cursor = page.nextCursor;
      }
      const end = tail.at(-1);
      expectThat(end !== undefined && !end.hasMore, 'the end of the stream list', end?.exchange ?? null);
      // The forward walk ends with the oldest stream, where the tail begins: the list's last three are among them.
      const ids = [...idsOf(await forwardWalk()), ...idsOf(tail)];
      const lastTwo = ids.slice(-2);
      for (const [from, expected] of [
        [ids.at(-2), ids.slice(-1)],
        [ids.at(-3), lastTwo],
      ] as const) {
        if (from === undefined) continue;
        const page = await streamPage({ [limitParameter]: pageSize, [cursorParameter]: from });
        expectThat(
          page.data.map((stream) => stream.id).join() === expected.join() &&
            !page.hasMore &&
            page.nextCursor === null,
          `after ${from}: ${expected.join(', ')}, hasMore false, nextCursor null`,
          page.exchange,
        );
      }
    },
    slowMachine,
  );

  restCheck(
    [
      'EP-BEFORE-CURSOR',
      'INF-OPENAPI-COMPONENTS-PARAMETERS-BEFORE',
      'INF-OPENAPI-PATHS-STREAMS-GET',
      'INF-OPENAPI-PATHS-STREAMS-GET-PARAMETERS-3',
      'INF-SCHEMAS-LIST-PROPERTIES-NEXTCURSOR',
    ],
    'before walks back from the oldest to the newest with the status filter, only that status, each once',
    async () => {
      const { oldest, newestFirst, newest } = await streams();
      const status = newest.status;
      const pages = await walk(reverseCursorParameter, oldest.id, newest.id, { status });
      const ids = [...pages].reverse().flatMap((page) => page.data.map((stream) => stream.id));
      const last = pages.at(-1)?.exchange ?? null;
      expectFullPagesBeforeTheLast(pages, 'first');
      const other = pages.flatMap((page) => page.data).find((stream) => stream.status !== status);
      expectThat(other === undefined, `only ${status} streams (${other?.id} is ${other?.status})`, last);
      expectThat(repeated(ids) === undefined, `no stream twice in the walk (${repeated(ids)} was)`, last);
      expectThat(!ids.includes(oldest.id), `the cursor’s own stream ${oldest.id} not before itself`, last);
      expectThat(
        inOrder(ids, [newest.id, ...newestFirst.map((stream) => stream.id)]),
        `${newest.id}, then the ${betweenCount} streams made before it, each once, newest first`,
        last,
      );
    },
    slowMachine,
  );
});

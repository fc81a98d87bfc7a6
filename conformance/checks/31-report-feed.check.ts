// The feed at reportUrl read as a feed reader would (no key), after each change a feed may be cached across: it must
// follow the report and its records at once (a feed cache keyed wrongly, or told of no write, shows the old one), and
// text with XML's special characters must come out escaped (else the document is not XML). Every check makes the
// objects it reads.
import { describe } from 'vitest';
import { ownLoopbackAddress, requestFrom } from '../harness/address-client.js';
import { expectThat } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import { restCheck } from './support/rest-check.js';
import { createRecord, createReport, publishRecord, sample } from './support/rest-fixtures.js';
import { call, expectOperationResponse, pathUnder } from './support/rest-http.js';

/** Several sequential requests each: room for a loaded machine, far beyond what they take on a quiet one. */
const slowMachine = { timeout: 60_000 };

const specials = `<&"'>`;

/** The text of XML character data with its five predefined entities and character references resolved. */
function unescapeXml(text: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return named[name] ?? entity;
  });
}

/** The unescaped contents of every `<title>` of the document, CDATA sections taken as they are. */
function titlesOf(xml: string): string[] {
  return [...xml.matchAll(/<title>([\s\S]*?)<\/title>/g)].map(([, inner = '']) =>
    inner.startsWith('<![CDATA[') && inner.endsWith(']]>') ? inner.slice(9, -3) : unescapeXml(inner),
  );
}

/**
 * A report's feed reader: null when reportUrl is not under `{base_url}`, the only place the suite reaches. Feed reads
 * count against the reader's address (x-rate-limit.perAddress): against a plain-HTTP target on loopback they come
 * from an address of their own, so they take nothing from the run's address budget (on the suite's address they
 * tipped it over, and other checks waited about 25 s for room); elsewhere they go through the budget like any probe.
 */
function feedReaderOf(reportUrl: string): (() => Promise<Exchange>) | null {
  const { baseUrl } = currentTarget();
  const feedPath = pathUnder(baseUrl, reportUrl);
  if (feedPath === null) return null;
  const ownAddress = baseUrl.startsWith('http:') ? ownLoopbackAddress(baseUrl) : null;
  if (ownAddress === null) return () => send('GET', feedPath, { key: null });
  return () => requestFrom(ownAddress, { method: 'GET', url: reportUrl });
}

function feedText(exchange: Exchange): string {
  expectOperationResponse('getReportFeed', exchange, 200);
  return String(exchange.response.body);
}

describe('the report feed', () => {
  restCheck(
    ['RES-REPORT-URL', 'INF-OPENAPI-PATHS-REPORTS-REPORTID-FEED-XML-GET'],
    `titles with ${specials} come out escaped in the feed, each reading back as sent`,
    async ({ skip }) => {
      const reportTitle = `Conformance feed ${specials} report`;
      const recordTitle = `Conformance feed ${specials} record`;
      const { report } = await createReport(reportTitle);
      const read = feedReaderOf(report.reportUrl);
      if (read === null) return skip(`reportUrl ${report.reportUrl} is not under {base_url}`);
      const { record } = await createRecord(report.id, { title: recordTitle, samples: [sample(Date.now())] });
      await publishRecord(report.id, record.id);
      // A second item, so that what comes between two items is seen too.
      const { record: second } = await createRecord(report.id, { samples: [sample(Date.now())] });
      await publishRecord(report.id, second.id);
      const exchange = await read();
      const feed = feedText(exchange);
      // RSS 2.0: a channel's children are elements; text between two items is not part of any of them.
      expectThat(
        !/<\/item>\s*[^\s<]/.test(feed),
        'nothing but whitespace after each item, before the next element',
        exchange,
      );
      expectThat(!feed.includes(specials), `no raw ${specials} in the XML`, exchange);
      expectThat(
        !/&(?!#x[0-9a-f]+;|#[0-9]+;|lt;|gt;|amp;|quot;|apos;)/i.test(feed),
        'every & starting a character or entity reference (a bare & is not XML)',
        exchange,
      );
      const titles = titlesOf(feed);
      expectThat(titles.includes(reportTitle), `the report's title ${reportTitle}`, exchange);
      expectThat(titles.includes(recordTitle), `the record's title ${recordTitle}`, exchange);
    },
    slowMachine,
  );

  restCheck(
    ['INF-OPENAPI-PATHS-REPORTS-REPORTID-FEED-XML-GET-RESPONSES-200'],
    'a feed read once follows at once a new report title, a deleted published record and a deleted report',
    async ({ skip }) => {
      const { report } = await createReport('Conformance feed before');
      const read = feedReaderOf(report.reportUrl);
      if (read === null) return skip(`reportUrl ${report.reportUrl} is not under {base_url}`);
      const { record: kept } = await createRecord(report.id, {
        title: 'Conformance feed kept record',
        samples: [sample(Date.now())],
      });
      const { record: removed } = await createRecord(report.id, {
        title: 'Conformance feed removed record',
        samples: [sample(Date.now())],
      });
      await publishRecord(report.id, kept.id);
      await publishRecord(report.id, removed.id);
      const first = await read();
      expectThat(titlesOf(feedText(first)).includes('Conformance feed before'), 'the report title', first);

      const renamed = await call(
        'updateReport',
        { reportId: report.id },
        { body: { title: 'Conformance feed after' } },
      );
      expectOperationResponse('updateReport', renamed, 200);
      const afterRename = await read();
      const renamedTitles = titlesOf(feedText(afterRename));
      expectThat(
        renamedTitles.includes('Conformance feed after') &&
          !renamedTitles.includes('Conformance feed before'),
        'the new report title, not the old one, right after the PATCH',
        afterRename,
      );
      const deleted = await call('deleteRecord', { reportId: report.id, recordId: removed.id });
      expectOperationResponse('deleteRecord', deleted, 200);
      const afterDelete = await read();
      const remaining = titlesOf(feedText(afterDelete));
      expectThat(
        remaining.includes('Conformance feed kept record') &&
          !remaining.includes('Conformance feed removed record'),
        'the deleted record gone, the other one kept',
        afterDelete,
      );
      const gone = await call('deleteReport', { reportId: report.id });
      expectOperationResponse('deleteReport', gone, 200);
      const afterReportDelete = await read();
      expectThat(
        afterReportDelete.response.status === 404,
        'status 404 once the report is deleted',
        afterReportDelete,
      );
    },
    slowMachine,
  );

  restCheck(
    ['RES-REPORT-URL', 'INF-OPENAPI-PATHS-REPORTS-REPORTID-FEED-XML-GET'],
    "feeds of several reports read at once, none read before, each show their own report's title",
    async ({ skip }) => {
      // A reader of one feed must never get another's, even while both are being built (a service that shares one
      // build among concurrent readers must keep builds of different reports apart). Rounds, since it is a race.
      const titles = [
        'Conformance feed at once A',
        'Conformance feed at once B',
        'Conformance feed at once C',
      ];
      const reports = await Promise.all(titles.map(async (title) => (await createReport(title)).report));
      const readers = reports.map((report) => feedReaderOf(report.reportUrl));
      if (readers.some((read) => read === null)) return skip('a reportUrl is not under {base_url}');
      for (let round = 0; round < 3; round += 1) {
        const exchanges = await Promise.all(readers.map((read) => (read as () => Promise<Exchange>)()));
        exchanges.forEach((exchange, index) => {
          const title = titles[index] as string;
          const channelTitle = titlesOf(feedText(exchange))[0];
          expectThat(
            channelTitle === title,
            `round ${round + 1}: the feed of the report titled ${title}`,
            exchange,
          );
        });
      }
    },
    slowMachine,
  );
});

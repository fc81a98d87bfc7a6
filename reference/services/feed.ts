import type { RecordRow } from '../storage/rows.js';
import type { Store } from '../storage/store.js';

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

function item(record: RecordRow, reportUrl: string): string {
  const title = escapeXml(record.title ?? record.id);
  const published = new Date(record.publishedAt ?? record.createdAt).toUTCString();
  return `<item><title>${title}</title><guid isPermaLink="false">${record.id}</guid><pubDate>${published}</pubDate><link>${escapeXml(reportUrl)}</link><description>${record.samples.length} samples</description></item>`;
}

/**
 * The RSS 2.0 document at a report's reportUrl: the newest `maxItems` published records, newest first. Pages are read
 * newest first until the window is full, so the work is bounded by the window, not by the report's size.
 */
export async function reportFeed(
  store: Store,
  accountId: string,
  report: { id: string; title: string },
  reportUrl: string,
  maxItems: number,
): Promise<string> {
  const items: string[] = [];
  let after: string | undefined;
  while (items.length < maxItems) {
    const page = await store.records.list(
      accountId,
      { limit: maxItems, ...(after === undefined ? {} : { after }) },
      { reportId: report.id },
    );
    if (page === null) break;
    for (const record of page.items)
      if (record.status === 'published' && items.length < maxItems) items.push(item(record, reportUrl));
    if (!page.hasMore) break;
    after = page.items.at(-1)?.id;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>${escapeXml(report.title)}</title><link>${escapeXml(reportUrl)}</link><description>${escapeXml(report.title)}</description>${items.join('')}</channel></rss>\n`;
}

import type { PublishedRecordRow } from '../storage/rows.js';
import type { Store } from '../storage/store.js';

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

function item(record: PublishedRecordRow, reportUrl: string): string {
  const title = escapeXml(record.title ?? record.id);
  const published = new Date(record.publishedAt).toUTCString();
  return `<item><title>${title}</title><guid isPermaLink="false">${record.id}</guid><pubDate>${published}</pubDate><link>${escapeXml(reportUrl)}</link><description>${record.sampleCount} samples</description></item>`;
}

/**
 * The RSS 2.0 document at a report's reportUrl: the newest `maxItems` published records, newest first. One query
 * reads the window without the records' samples, so the work is bounded by the window, not by the report's size
 * (issue 12, item 1).
 */
export async function reportFeed(
  store: Store,
  accountId: string,
  report: { id: string; title: string },
  reportUrl: string,
  maxItems: number,
): Promise<string> {
  const records = await store.records.publishedWindow(accountId, report.id, maxItems);
  const items = records.map((record) => item(record, reportUrl)).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>${escapeXml(report.title)}</title><link>${escapeXml(reportUrl)}</link><description>${escapeXml(report.title)}</description>${items}</channel></rss>\n`;
}

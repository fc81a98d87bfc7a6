// Headless Chromium for the docs test: reads a page's whole visible text and every request it makes.
import { spawnSync } from 'node:child_process';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (scripts/setup-chromium.sh); empty when it is not installed. */
export const chromiumPath = spawnSync('sh', ['-c', 'command -v chromium'], {
  encoding: 'utf8',
}).stdout.trim();

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

// The test tsconfig has no DOM types; this is the little of `window` the page-side code uses.
// Functions given to page.evaluate run in the page, so they cast globalThis inline instead of calling helpers.
interface PageWindow {
  document: { body: { innerText: string }; documentElement: { scrollHeight: number } };
  scrollY: number;
  innerHeight: number;
  scrollBy(x: number, y: number): void;
  scrollTo(x: number, y: number): void;
}

// Visible text with whitespace collapsed; Redoc breaks long paths with zero-width spaces.
export const normalize = (text: string): string => text.replace(/\u200b/g, '').replace(/\s+/g, ' ');

export interface PageReading {
  text: string;
  remoteRequests: string[];
}

// How long a page may take to render everything; a loaded CI machine once needed more than three quick passes.
export const renderDeadlineMs = 45_000;
const pauseBetweenPassesMs = 500;

/**
 * Redoc mounts sections only near the viewport and hydrates lazily, so scroll down half a screen at a time,
 * keeping every snapshot, and start over until all `words` have been seen or the deadline passes. Passes are
 * bounded by time, not count: while a page still shows only its "Loading..." shell it is one screen tall, and
 * a pass over it ends at once.
 */
export async function readPage(browser: Browser, url: string, words: string[]): Promise<PageReading> {
  const page = await browser.newPage();
  const remoteRequests: string[] = [];
  // blob: URLs are made by the page itself (Redoc's search worker), so they never leave the machine.
  page.on('request', (request) => {
    if (!/^(file|data|about|blob):/.test(request.url())) remoteRequests.push(request.url());
  });
  await page.goto(url, { waitUntil: 'load' });
  let seen = '';
  const deadline = Date.now() + renderDeadlineMs;
  for (let pass = 0; !words.every((word) => seen.includes(word)) && Date.now() < deadline; pass++) {
    if (pass > 0) await page.waitForTimeout(pauseBetweenPassesMs);
    await page.evaluate(() => (globalThis as unknown as PageWindow).scrollTo(0, 0));
    for (let step = 0; step < 400 && Date.now() < deadline; step++) {
      const snapshot = await page.evaluate(() => {
        const view = globalThis as unknown as PageWindow;
        const atBottom = view.scrollY + view.innerHeight >= view.document.documentElement.scrollHeight - 2;
        view.scrollBy(0, view.innerHeight / 2);
        // innerText: the rendered text a reader sees (textContent would include the page's scripts).
        return { text: view.document.body.innerText, atBottom };
      });
      seen += ` ${normalize(snapshot.text)}`;
      if (snapshot.atBottom) break;
      await page.waitForTimeout(100);
    }
  }
  // Late requests (an image after hydration) have no event to wait for; give them a moment to show up.
  await page.waitForTimeout(500);
  await page.close();
  return { text: seen, remoteRequests };
}

/**
 * The inspector on a phone and on a laptop, in headless Debian Chromium (playwright-core)
 * against `engram serve` as a child process: every page of the demo database at 390 and 1280
 * px wide without the page itself scrolling sideways (a wide table scrolls inside its own box),
 * the receipt's legend spelling out every column header, and — on an empty database — every
 * empty state a sentence that says what would fill the page.
 *
 * Without Chromium the suite is skipped, with the reason in its name; in CI (CI=true) a missing
 * Chromium fails it instead.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CHROMIUM_PATH, hasChromium, launchChromium } from '../../scripts/chromium.js';
import { seedDemo } from '../../scripts/inspector-demo.js';
import { type InspectorPage, inspectorPages } from '../../scripts/inspector-pages.js';
import { dbIn, LEXICAL, makeTempDir } from '../cli/helpers.js';
import { type ServeProcess, startServeProcess } from '../http/helpers.js';

const MISSING = !hasChromium();
const SKIP = MISSING && process.env.CI !== 'true';
const TITLE = SKIP
  ? `the inspector’s layout in a browser (skipped: no Chromium at ${CHROMIUM_PATH}; install Debian's package with apt-get install -y chromium)`
  : 'the inspector’s layout in a browser';

/** The pages of a database with nothing in it, and what each says. */
const EMPTY_PAGES: readonly InspectorPage[] = [
  { name: 'memories', href: '/memories' },
  { name: 'search', href: '/memories?q=invoices' },
  { name: 'filtered', href: '/memories?kind=decision' },
  { name: 'sessions', href: '/sessions' },
  { name: 'session', href: '/sessions/never-started' },
  { name: 'receipts', href: '/receipts' },
  { name: 'working-set', href: '/working-set' },
  { name: 'notes', href: '/notes' },
  { name: 'activity', href: '/activity' },
  { name: 'solutions', href: '/solutions?goal=export+faster' },
  { name: 'graph', href: '/graph' },
  { name: 'graph search', href: '/graph?q=Caroline' },
  { name: 'stats', href: '/stats' },
];

/** A sentence: a capital first, an end mark last, and at least four words. */
const SENTENCE = /^[A-Z][^]*\S\s+\S+\s+\S+\s+\S[^]*[.!?]$/;

describe.skipIf(SKIP)(TITLE, () => {
  let temp: ReturnType<typeof makeTempDir>;
  let demo: ServeProcess;
  let empty: ServeProcess;
  let browser: Browser;
  let pages: InspectorPage[];

  beforeAll(async () => {
    if (MISSING)
      throw new Error(`CI=true and Chromium is missing at ${CHROMIUM_PATH}: .ci/run installs it (apt-get install -y chromium)`);
    temp = makeTempDir();
    // The demo is written with the local model, so the server searches with it too.
    pages = inspectorPages(await seedDemo(dbIn(temp.dir, 'demo.db')));
    demo = await startServeProcess(temp.dir, ['--db', dbIn(temp.dir, 'demo.db')], {});
    empty = await startServeProcess(temp.dir, ['--db', dbIn(temp.dir, 'empty.db')], LEXICAL);
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    await empty?.stop();
    temp?.remove();
  });

  /** A page `width` px wide that fails the test on a script error. */
  async function newPage(width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    page.on('pageerror', (error) => {
      throw error;
    });
    return page;
  }

  /** Opens `href` on `server`, which must answer 200. */
  async function open(page: Page, server: ServeProcess, href: string): Promise<void> {
    const response = await page.goto(`${server.url}${href}`);
    expect(response?.status(), href).toBe(200);
  }

  // (Expressions as strings: the tests are compiled without the DOM's types.)
  const pageWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;

  for (const width of [390, 1280]) {
    it(`shows every page at ${width} px without scrolling the page sideways`, async () => {
      const page = await newPage(width);
      const overflowing: string[] = [];
      for (const { name, href } of pages) {
        await open(page, demo, href);
        const scrollWidth = await pageWidth(page);
        if (scrollWidth > width) overflowing.push(`${name} (${href}): ${scrollWidth} px`);
      }
      expect(overflowing).toEqual([]);
      await page.close();
    });
  }

  it('scrolls a receipt’s wide table inside its own box on a phone', async () => {
    const page = await newPage(390);
    await open(page, demo, pages.find((entry) => entry.name === 'receipt')?.href as string);
    const [inner, outer] = (await page.evaluate(
      "(() => { const box = document.querySelector('.scroll:has(table.entries)'); return [box.scrollWidth, box.clientWidth]; })()",
    )) as [number, number];
    expect(inner).toBeGreaterThan(outer);
    expect(outer).toBeLessThanOrEqual(390);
    await page.close();
  });

  it('explains every column of a receipt in words, in the header’s tooltip and in the legend', async () => {
    const page = await newPage(1280);
    await open(page, demo, pages.find((entry) => entry.name === 'receipt')?.href as string);
    const headers = (await page.evaluate(
      "[...document.querySelectorAll('table.entries thead th')].map((cell) => [cell.textContent.trim(), cell.getAttribute('title') ?? ''])",
    )) as [string, string][];
    expect(headers.length).toBeGreaterThanOrEqual(16);
    const legend = new Map(
      (await page.evaluate(
        "[...document.querySelectorAll('#receipt-columns dt')].map((term) => [term.textContent.trim(), term.nextElementSibling.textContent.trim()])",
      )) as [string, string][],
    );
    for (const [header, title] of headers) {
      const meaning = legend.get(header);
      expect(meaning, `the legend explains ${header}`).toMatch(/^[A-Z][\w ()'’-]*: \S+(\s+\S+){3,}/);
      // The tooltip says the same in words: the full name first.
      expect(title, `the tooltip of ${header}`).toBe(meaning);
    }
    for (const name of [
      'Relevance',
      'Cooldown',
      'Recency',
      'Importance',
      'Novelty',
      'Repeat penalty',
      'Exact match',
      'Diversity (MMR)',
    ]) {
      expect(
        [...legend.values()].some((meaning) => meaning.startsWith(`${name}: `)),
        name,
      ).toBe(true);
    }
    await page.close();
  });

  it('says in a sentence what would fill each page of an empty database', async () => {
    const page = await newPage(390);
    const found: Record<string, string[]> = {};
    for (const { name, href } of EMPTY_PAGES) {
      await open(page, empty, href);
      found[name] = (await page.locator('.empty').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
      expect(found[name]?.length, `${name} says it is empty`).toBeGreaterThan(0);
      for (const text of found[name] ?? []) expect(text, `${name}: ${text}`).toMatch(SENTENCE);
      const main = (await page.locator('main').textContent()) ?? '';
      expect(main).not.toMatch(/nothing here/i);
      const muted = (await page.locator('main p.muted').allTextContents()).map((text) => text.trim().toLowerCase());
      expect(muted.filter((text) => ['none', 'nothing', 'empty', 'no more'].includes(text))).toEqual([]);
      expect(await pageWidth(page), `${name} at 390 px`).toBeLessThanOrEqual(390);
    }
    // What would fill them, in the words a new user needs.
    expect(found.memories?.[0]).toBe(
      'No memories yet. Add one with engram add "…" or POST /v1/memories, or let an agent write them with its memory tools.',
    );
    expect(found.search?.[0]).toMatch(/^No memory matches this search/);
    expect(found.filtered?.[0]).toMatch(/^No memory matches these filters/);
    await page.close();
  });
});

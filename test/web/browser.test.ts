/**
 * The inspector in a real browser: headless Debian Chromium, driven by playwright-core, against
 * `engram serve` as a child process on a real SQLite file with the local model. It searches,
 * edits a memory and reads the change back with `engram show`, forgets, reads a turn's
 * receipt, shows stored markup without running it, and refuses a form posted by another site.
 *
 * Without Chromium the suite is skipped, with the reason in its name; in CI (CI=true) a missing
 * Chromium fails it instead (.ci/run installs the `chromium` package).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CHROMIUM_PATH, hasChromium, launchChromium } from '../../scripts/chromium.js';
import { openEngram, type Receipt } from '../../src/index.js';
import { dbIn, LEXICAL, makeTempDir, runJson } from '../cli/helpers.js';
import { type ServeProcess, startServeProcess } from '../http/helpers.js';

const MISSING = !hasChromium();
const SKIP = MISSING && process.env.CI !== 'true';
const TITLE = SKIP
  ? `the inspector in a browser (skipped: no Chromium at ${CHROMIUM_PATH}; install Debian's package with apt-get install -y chromium)`
  : 'the inspector in a browser';

const HOSTILE = 'Ignore <script>window.__xss = 1</script> this <img src=x onerror="window.__xss = 2"> note';

describe.skipIf(SKIP)(TITLE, () => {
  let temp: ReturnType<typeof makeTempDir>;
  let db: string;
  let server: ServeProcess;
  let browser: Browser;
  let ids: { postgres: string; friday: string; hostile: string };

  beforeAll(async () => {
    if (MISSING)
      throw new Error(`CI=true and Chromium is missing at ${CHROMIUM_PATH}: .ci/run installs it (apt-get install -y chromium)`);
    temp = makeTempDir();
    db = dbIn(temp.dir);
    // Seeded in this process with the local model, so recall writes real receipts.
    const engram = await openEngram({ path: db });
    try {
      const postgres = await engram.remember({
        text: 'The billing service stores invoices in PostgreSQL 16',
        kind: 'fact',
        tier: 'nice',
      });
      const friday = await engram.remember({ text: 'Never deploy to production on Fridays', kind: 'constraint', tier: 'must' });
      const hostile = await engram.remember({ text: HOSTILE, tags: ['<b>bold</b>'] });
      await engram.session({ id: 's1' }).beforeTurn('Which database holds the billing invoices?');
      ids = { postgres: postgres.id, friday: friday.id, hostile: hostile.id };
    } finally {
      await engram.close();
    }
    server = await startServeProcess(temp.dir, ['--db', db], {});
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    temp?.remove();
  });

  /** A fresh page that fails the test on any script error or dialog. */
  async function newPage(): Promise<Page> {
    const page = await browser.newPage();
    page.on('dialog', (dialog) => {
      throw new Error(`a dialog opened: ${dialog.message()}`);
    });
    return page;
  }

  /** `engram show <id> --json` on the same file, as another process. */
  function show(id: string): Promise<Record<string, unknown>> {
    return runJson(['show', id, '--db', db], { cwd: temp.dir, env: LEXICAL });
  }

  it('searches, and shows each hit’s relevance with the signals and factors behind it', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/`);
    await page.fill('input[name=q]', 'which database stores the invoices');
    await page.click('button:has-text("Apply")');
    await page.waitForURL(/\/memories\?q=/);
    const first = page.locator('table.memories tbody tr').first();
    await expect.poll(() => first.textContent()).toContain('PostgreSQL 16');
    expect(await first.locator('td.num').first().textContent()).toMatch(/^0\.\d\d$/);
    expect(await first.textContent()).toMatch(/signals: bm25 [\d.]+, coverage [\d.]+, cosine [\d.]+/);
    expect(await first.textContent()).toMatch(/factors: recency [\d.]+, scope [\d.]+/);
    await page.close();
  });

  it('edits tier, pinned and tags, and engram show reads the change', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/memories/${ids.postgres}`);
    await page.selectOption('select[name=tier]', 'must');
    await page.check('input[name=pinned]');
    await page.fill('input[name=tags]', 'billing, database');
    await page.click('button:has-text("Save")');
    await page.waitForURL(/done=updated/);
    expect(await page.locator('.notice').textContent()).toBe('Saved.');
    expect(await show(ids.postgres)).toMatchObject({
      tier: 'must',
      pinned: true,
      hardRule: false,
      tags: ['billing', 'database'],
    });
    await page.close();
  });

  it('forgets a memory: archived for engram show, gone from the list, and restorable', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/memories/${ids.friday}`);
    await page.click('button:has-text("Forget")');
    await page.waitForURL(/done=forgotten/);
    expect((await show(ids.friday)).archivedAt).toEqual(expect.any(String));
    await page.goto(`${server.url}/memories`);
    expect(await page.locator(`a[href="/memories/${ids.friday}"]`).count()).toBe(0);
    await page.goto(`${server.url}/memories?status=archived`);
    expect(await page.locator(`a[href="/memories/${ids.friday}"]`).count()).toBe(1);
    await page.goto(`${server.url}/memories/${ids.friday}`);
    await page.click('button:has-text("Restore")');
    await page.waitForURL(/done=restored/);
    expect((await show(ids.friday)).archivedAt).toBeNull();
    await page.close();
  });

  it('reads a turn’s receipt from the sessions page: the same decision as engram receipts', async () => {
    const [receipt] = await runJson<Receipt[]>(['receipts', '--session', 's1', '--turn', '1', '--db', db], {
      cwd: temp.dir,
      env: LEXICAL,
    });
    expect(receipt).toBeDefined();
    const page = await newPage();
    await page.goto(`${server.url}/sessions`);
    await page.click('a:has-text("s1")');
    await page.click('td.num a:has-text("1")');
    await page.waitForURL(/\/receipts\?session=s1&turn=1/);
    const screen = (await page.locator('section.receipt').textContent()) ?? '';
    expect(screen).toContain('active recall · turn 1 of session s1');
    expect(screen).toContain('Which database holds the billing invoices?');
    expect(screen).toContain(receipt?.whySummary as string);
    expect(screen).toMatch(/latency[\d.]+ ms \(embed [\d.]+, search [\d.]+\)/);
    expect(screen).toMatch(/quotasmust ≤ 2, nice ≥ 2, unknown ≤ 1/);
    for (const entry of [...(receipt?.chosen ?? []), ...(receipt?.leftOut ?? []).slice(0, 8)]) expect(screen).toContain(entry.id);
    expect(receipt?.chosen.length).toBeGreaterThan(0);
    await page.close();
  });

  it('shows a stored <script> and <img onerror> as text, and runs neither', async () => {
    const page = await newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    for (const path of ['/memories', `/memories/${ids.hostile}`, `/memories?q=${encodeURIComponent('ignore this note')}`]) {
      await page.goto(`${server.url}${path}`);
      await expect.poll(() => page.locator('main').textContent()).toContain('<script>window.__xss = 1</script>');
      expect(await page.locator('main').textContent()).toContain('<img src=x onerror="window.__xss = 2">');
      expect(await page.locator('main script, main img').count()).toBe(0);
      // (Expressions as strings: the tests are compiled without the DOM's types.)
      expect(await page.evaluate('window.__xss')).toBeUndefined();
      if (path.startsWith('/memories/')) expect(await page.locator('main').textContent()).toContain('<b>bold</b>');
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses a form another site makes the browser post, and changes nothing', async () => {
    // The attacker's page, on another origin, posts to the inspector with the browser's cookies.
    const attacker = await startAttacker(`${server.url}/memories/${ids.postgres}/forget`);
    try {
      const page = await newPage();
      await page.goto(`${server.url}/memories/${ids.postgres}`); // the victim has a session
      await page.goto(`${attacker.url}/`);
      const [response] = await Promise.all([page.waitForResponse(/\/forget$/), page.click('button')]);
      expect(response.status()).toBe(403);
      expect((await show(ids.postgres)).archivedAt).toBeNull();

      // The same page of the inspector's own origin without the form's token: refused too.
      await page.goto(`${server.url}/memories/${ids.postgres}`);
      await page.evaluate("for (const field of document.querySelectorAll('input[name=_csrf]')) field.value = 'forged'");
      const [own] = await Promise.all([page.waitForResponse(/\/forget$/), page.click('button:has-text("Forget")')]);
      expect(own.status()).toBe(403);
      expect(await page.locator('main').textContent()).toMatch(/refused/);
      expect((await show(ids.postgres)).archivedAt).toBeNull();
      await page.close();
    } finally {
      await new Promise((resolve) => attacker.server.close(resolve));
    }
  });
});

/** A page on another origin whose button posts a form to `target`. */
async function startAttacker(target: string): Promise<{ server: Server; url: string }> {
  const html = `<!DOCTYPE html><form method="post" action="${target}"><input type="hidden" name="_csrf" value="guessed"><button type="submit">win a prize</button></form>`;
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Screenshots of every inspector page, for the docs and the README: builds a demo database
 * (inspector-demo.ts), starts `engram serve` on it, and saves one PNG per page in docs/images/.
 *
 *   npm run build && npx tsx scripts/inspector-screenshots.ts [--out docs/images]
 *
 * Needs Debian's Chromium (/usr/bin/chromium, or ENGRAM_CHROMIUM).
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import type { Browser } from 'playwright-core';

import { hasChromium, launchChromium } from './chromium.js';
import { seedDemo } from './inspector-demo.js';
import { inspectorPages } from './inspector-pages.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outFlag = process.argv.indexOf('--out');
const out = path.resolve(outFlag > 0 ? (process.argv[outFlag + 1] ?? '') : path.join(root, 'docs', 'images'));

if (!hasChromium()) {
  process.stderr.write('inspector-screenshots: Chromium is missing: apt-get install -y chromium\n');
  process.exit(1);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-screenshots-'));
const db = path.join(dir, 'engram.db');
const ids = await seedDemo(db);

const child = spawn(
  process.execPath,
  [path.join(root, 'dist/surfaces/cli/main.js'), 'serve', '--port', '0', '--json', '--db', db],
  {
    env: { ...process.env, ENGRAM_DAEMON__ENABLED: 'false' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
// Whatever fails below, the server stops and the demo database goes.
try {
  const base = await listening(child);
  const browser = await launchChromium();
  try {
    mkdirSync(out, { recursive: true });
    await screenshotPages(browser, base);
  } finally {
    await browser.close();
  }
} finally {
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}

/** The server's address, from the first line `engram serve --json` prints. */
function listening(server: ChildProcessByStdio<null, Readable, null>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve((JSON.parse(text.split('\n')[0] as string) as { api: string }).api.replace(/\/v1$/, ''));
    });
    server.once('exit', (code) => reject(new Error(`engram serve exited (${code})`)));
  });
}

/** One PNG per page, each page first checked to answer 200. */
async function screenshotPages(browser: Browser, base: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
  for (const { name, href } of inspectorPages(ids)) {
    const response = await page.goto(`${base}${href}`);
    if (response?.status() !== 200) throw new Error(`${href} answered ${response?.status()}`);
    const file = path.join(out, `inspector-${name}.png`);
    await page.screenshot({ path: file, fullPage: name !== 'memories' && name !== 'search' });
    process.stdout.write(`${path.relative(root, file)}\n`);
  }
}

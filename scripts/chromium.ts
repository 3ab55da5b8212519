/**
 * Debian's Chromium, driven by playwright-core (which never downloads a browser of its own):
 * the one place that knows where the browser is and the flags it needs on a machine without
 * network access. Used by the browser tests and the screenshot script.
 */
import { existsSync } from 'node:fs';

import { type Browser, chromium } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser; `ENGRAM_CHROMIUM` overrides it. */
export const CHROMIUM_PATH = process.env.ENGRAM_CHROMIUM ?? '/usr/bin/chromium';

/** Whether the browser is installed. */
export function hasChromium(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * Starts headless Chromium. No sandbox (tests run as root in containers), and no background
 * networking: the browser must not try to reach anything but the server under test.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

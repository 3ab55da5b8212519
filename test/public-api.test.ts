/**
 * The root entry's exports are a promise to users: this list changes only on purpose. It is what
 * an application needs (docs/decisions/public-api.md); the rest lives behind subpaths, and
 * api/engram-api.md records every entry's declarations (test/api-report.test.ts).
 */
import { describe, expect, it } from 'vitest';

import * as engram from '../src/index.js';

describe('the public API', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(engram).sort()).toEqual(
      [
        // Open an engine; load the configuration an app shares with the CLI.
        'Engram',
        'openEngram',
        'loadConfig',
        // Bring an embedder, or make the built-in ones yourself.
        'createLocalEmbedder',
        'createOpenAiEmbedder',
        // Errors to branch on.
        'ConfigError',
        'EmbedderMismatchError',
        'EngramError',
        'InvalidInputError',
        'NotFoundError',
        'isEngramError',
        // Time in tests.
        'manualClock',
      ].sort(),
    );
  });

  it('is what the built package exports too', async () => {
    const entry = new URL('../dist/index.js', import.meta.url).href; // built by npm test before vitest runs
    const built = (await import(entry)) as Record<string, unknown>;
    expect(Object.keys(built).sort()).toEqual(Object.keys(engram).sort());
  });
});

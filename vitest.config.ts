import { availableParallelism } from 'node:os';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    // Native modules (better-sqlite3) and the wasm model are happiest in child processes.
    pool: 'forks',
    // The CLI, HTTP and MCP tests mostly wait on the child processes they start, one at a time:
    // a test file per core keeps every core busy (vitest's default leaves one idle, on 2 cores half).
    maxWorkers: availableParallelism(),
    // Real child processes and the real embedding model: generous, since CI machines are shared.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

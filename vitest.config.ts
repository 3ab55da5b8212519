import { availableParallelism } from 'node:os';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Native modules (better-sqlite3) and the wasm model are happiest in child processes.
    pool: 'forks',
    // The CLI, HTTP and MCP tests mostly wait on the child processes they start, one at a time:
    // a test file per core keeps every core busy (vitest's default leaves one idle, on 2 cores half).
    maxWorkers: availableParallelism(),
    // Real child processes and the real embedding model: generous, since CI machines are shared.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          // The unit tests beside the code run one after another in a worker that keeps the
          // modules it loaded: a new process per file cost ~0.25 s of CPU each (25 s of the
          // 57 s the 99 files took), more than most of them test for. They change no
          // process-wide state (no environment, no working folder, no module mocks).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // A new process for each file: these start servers, load the model, spawn the CLI.
          include: ['test/**/*.test.ts', 'bench/**/*.test.ts'],
        },
      },
    ],
  },
});

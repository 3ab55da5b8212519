import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    // Native modules (better-sqlite3) and the wasm model are happiest in child processes.
    pool: 'forks',
    // Real child processes and the real embedding model: generous, since CI machines are shared.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

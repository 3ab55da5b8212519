import { availableParallelism } from 'node:os';

import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that run the library in their own process and leave nothing behind in it (no
 * environment, no working folder, no module mocks; their helpers' clean-ups go through
 * test/fixtures/cleanups.ts): they share a worker from file to file, which keeps the modules and
 * the local model it loaded. A new process for each cost ~1 s of CPU apiece: these 56 files took
 * 117 s of CPU that way, 60 s sharing. A file joins the list once it passes here, in any order
 * (`npx vitest run --project shared --sequence.shuffle.files`), and alone.
 */
const SHARED_WORKER_FILES = [
  'test/{activation-cooldown,activation-golden,activity-log,ai-sdk-middleware,doctor}.test.ts',
  'test/{claude-agent-sdk-hooks,claude-agent-sdk-mcp,embedding-overlap,embedding-reuse}.test.ts',
  'test/{engram,engram-scopes,extraction-best-effort,graph-extraction,graph-recall}.test.ts',
  'test/{hybrid-search,import-formats,knowledge-graph,library-messages,pinned-day-recall}.test.ts',
  'test/{langgraph-store-contract,langgraph-store-errors,langgraph-store-search}.test.ts',
  'test/{openai-agents-errors,openai-agents-memory,search-ahead,session-loop,session-start-turn}.test.ts',
  'test/{solution-recall,subpath-exports,tools,tools-agent-loop,tools-contract}.test.ts',
  'test/{sqlite-kept-memories,sqlite-kept-mentions,sqlite-memory-writes,sqlite-store,sqlite-vector-index}.test.ts',
  'test/http/{api,bad-input,graph,openapi,tenants}.test.ts',
  'test/mcp/{graph-tools,streamable-http}.test.ts',
  'test/proxy/{proxy-timing,recall-proxy,upstream-encodings}.test.ts',
  'test/web/{inspector,inspector-lists}.test.ts',
  'bench/{footprint-parts,locomo-data,metrics,names-speaker,ranks-file,solution-pairs}.test.ts',
  'bench/reliability/processes.test.ts',
];

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
    // Runs what test helpers register with afterThisTest and afterThisFile, in every test file.
    setupFiles: ['test/fixtures/cleanup-hooks.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          // The unit tests beside the code share a worker too: a new process per file cost
          // ~0.2 s of CPU each (the 99 files took 51 s of CPU that way, 31 s sharing).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: SHARED_WORKER_FILES,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // A new process for each file: these start servers and browsers, spawn the CLI, read
          // large data sets, or have not been checked beside the others.
          include: ['test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SHARED_WORKER_FILES],
        },
      },
    ],
  },
});

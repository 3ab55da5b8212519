/**
 * The activity log on PostgreSQL: the same promises as on SQLite (activity-log-suite.ts), on a
 * real server the test starts itself (test/fixtures/postgres-server.ts), a fresh database per test.
 */
import { afterAll, afterEach, beforeAll, describe } from 'vitest';

import { type Engram, manualClock, openEngram } from '../src/index.js';
import { activityLogSuite } from './activity-log-suite.js';
import { type PostgresServer, startPostgres } from './fixtures/postgres-server.js';

let server: PostgresServer;
let databases = 0;
const open: Engram[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterEach(async () => {
  for (const engram of open.splice(0)) await engram.close();
});

afterAll(async () => {
  await server?.stop();
});

describe('the activity log (PostgreSQL)', () => {
  activityLogSuite(async () => {
    const url = await server.createDatabase(`activity_${++databases}`);
    const engram = await openEngram({
      config: { store: { url } },
      embedder: null,
      clock: manualClock('2026-03-02T10:00:00.000Z'),
    });
    open.push(engram);
    return engram;
  });
});

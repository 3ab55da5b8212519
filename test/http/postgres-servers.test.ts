/**
 * Many servers, one database: two real `engram serve` processes on one PostgreSQL database (a
 * server the test starts itself). A memory one acknowledges is found by the other's very next
 * search, by words and by meaning past the in-memory index's exact-scan size; a session whose
 * calls alternate between the two ends in the state one server alone would have left; and
 * writes of one key landing on both at once lose nothing and leave one live holder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { makeTempDir } from '../cli/helpers.js';
import { makeMemory } from '../fixtures/memory.js';
import { type PostgresServer, startPostgres } from '../fixtures/postgres-server.js';
import { gaussian, seededRandom } from '../fixtures/random.js';
import { type JsonReply, send, type ServeProcess, startServeProcess } from './helpers.js';

/** Past the in-memory index's exact-scan size (4,000 vectors of a tenant). */
const FILLER = 4_100;
/** The local embedder's dimensions. */
const DIMENSIONS = 512;

let postgres: PostgresServer;
let temp: ReturnType<typeof makeTempDir>;
let a: ServeProcess;
let b: ServeProcess;

interface Hit {
  memory: { id: string; text: string };
}
interface MemoryReply {
  memory: { id: string; key: string | null; text: string; supersededBy: string | null };
}

beforeAll(async () => {
  postgres = await startPostgres();
  temp = makeTempDir();
  const url = await postgres.createDatabase('servers');
  await seedFiller(url);
  // The real local embedder in both; one embedding thread each, as the machine is small.
  const env = { ENGRAM_STORE_URL: url, ENGRAM_EMBEDDING__WORKERS: '0' };
  [a, b] = await Promise.all([startServeProcess(temp.dir, [], env), startServeProcess(temp.dir, [], env)]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await postgres?.stop();
  temp?.remove();
});

/** Filler memories with random vectors of the local embedder's size, written straight to the store. */
async function seedFiller(url: string): Promise<void> {
  const store = await new PostgresStore(url).open();
  try {
    const random = seededRandom(5);
    await store.commit({
      insert: Array.from({ length: FILLER }, (_, i) => ({
        memory: makeMemory({ id: `filler-${i}`, tenant: 'default', scope: 'filler', text: `filler note number ${i}` }),
        vector: Float32Array.from({ length: DIMENSIONS }, () => gaussian(random)),
      })),
    });
  } finally {
    await store.close();
  }
}

function search(server: ServeProcess, query: string, mode: string): Promise<JsonReply<{ hits: Hit[] }>> {
  return send<{ hits: Hit[] }>(server.url, 'POST', '/v1/search', { body: { query, mode, limit: 5 } });
}

describe('two engram serve processes on one PostgreSQL database', () => {
  it('finds a memory the other server acknowledged on its very next search, by words and by meaning', async () => {
    // B has built its in-memory index of the filler before A writes.
    expect((await search(b, 'filler note', 'dense')).status).toBe(200);

    for (const [text, query] of [
      ['The payments team moved the ledger to Frankfurt', 'where is the ledger hosted'],
      ['Quarterly reviews happen in the first week of April', 'when are the quarterly reviews'],
    ] as const) {
      const created = await send<MemoryReply>(a.url, 'POST', '/v1/memories', { body: { text, scope: 'project:pay' } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);

      const dense = await search(b, text, 'dense');
      expect(dense.status).toBe(200);
      expect(dense.body.hits[0]?.memory.id).toBe(created.body.memory.id);
      const hybrid = await search(b, query, 'hybrid');
      expect(hybrid.body.hits[0]?.memory.id).toBe(created.body.memory.id);
    }
  }, 60_000);

  it('keeps one session state when its calls alternate between the servers, as one server would', async () => {
    const script = async (servers: readonly ServeProcess[], scope: string) => {
      const on = (i: number) => servers[i % servers.length] as ServeProcess;
      for (const text of ['Deploys are frozen on Fridays', 'The staging database is called orca', 'Alice reviews every deploy']) {
        expect((await send(on(0).url, 'POST', '/v1/memories', { body: { text, scope, tier: 'must' } })).status).toBe(201);
      }
      const session = `/v1/sessions/${scope.replace(':', '-')}`;
      const where = { scope, scopes: [scope] };
      const steps: unknown[] = [];
      let call = 0;
      const post = async (path: string, body: Record<string, unknown>) => {
        const reply = await send<Record<string, unknown>>(on(call++).url, 'POST', `${session}${path}`, {
          body: { ...where, ...body },
        });
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        return reply.body;
      };
      const start = await post('/start', {});
      steps.push({ resumed: start.resumed });
      for (const message of ['can we deploy on Friday?', 'who reviews a deploy on the staging database?', 'deploy now']) {
        steps.push(outcome(await post('/before-turn', { message })));
        for (let step = 0; step < 6; step++) {
          steps.push(
            outcome(await post('/after-step', { assistantText: 'checking the deploy rules', toolCalls: [{ name: 'ls' }] })),
          );
        }
      }
      const context = await send<{ turn: number; text: string }>(on(call++).url, 'GET', `${session}/context?scope=${scope}`);
      steps.push({ turn: context.body.turn, text: context.body.text });
      const receipts = await send<{ receipts: { turn: number; path: string }[] }>(
        on(call++).url,
        'GET',
        `/v1/receipts?session=${session.split('/').pop()}&limit=100`,
      );
      steps.push(receipts.body.receipts?.map(({ turn, path }) => ({ turn, path })) ?? receipts.body);
      return steps;
    };

    const alternating = await script([a, b], 'project:two');
    const alone = await script([a], 'project:one');

    expect(alternating).toEqual(alone);
    // The script did reach the state worth comparing: turns counted, nudges due, memories injected.
    expect(alternating).toContainEqual(expect.objectContaining({ turn: 3 }));
    expect(alternating).toContainEqual(expect.objectContaining({ nudge: true, toolOnlyTurns: 5 }));
    expect(alternating).toContainEqual(
      expect.objectContaining({ injected: expect.arrayContaining(['Deploys are frozen on Fridays']) }),
    );
  }, 120_000);

  it('loses no write of one key sent to both servers at once, and leaves one live holder', async () => {
    const writes = 12;
    const write = (server: ServeProcess, i: number) =>
      send<MemoryReply>(server.url, 'POST', '/v1/memories', {
        body: { text: `the release train leaves at ${i + 1} o'clock`, key: 'release-train', scope: 'project:rail' },
      });
    // A first holder, which every write below finds and means to supersede.
    const first = await write(a, 0);
    expect(first.status).toBe(201);
    const replies = [
      first,
      ...(await Promise.all(Array.from({ length: writes - 1 }, (_, i) => write(i % 2 === 0 ? a : b, i + 1)))),
    ];
    for (const reply of replies) expect(reply.status, JSON.stringify(reply.body)).toBe(201);

    const listed = await send<{ memories: MemoryReply['memory'][] }>(
      a.url,
      'GET',
      '/v1/memories?scope=project:rail&status=all&limit=100',
    );
    const stored = listed.body.memories;
    expect(stored.map((m) => m.id).sort()).toEqual(replies.map((r) => r.body.memory.id).sort());
    const live = stored.filter((m) => m.supersededBy === null);
    expect(live).toHaveLength(1);
    // Each superseded one points to another of them, and following the pointers from any ends at the live one.
    const byId = new Map(stored.map((m) => [m.id, m]));
    for (const memory of stored) {
      let at = memory;
      for (let hops = 0; at.supersededBy !== null && hops <= writes; hops++) at = byId.get(at.supersededBy) as typeof at;
      expect(at.id).toBe(live[0]?.id);
    }
    // One chain: no memory is superseded by two.
    const pointers = stored.flatMap((m) => (m.supersededBy === null ? [] : [m.supersededBy]));
    expect(new Set(pointers).size).toBe(pointers.length);
    const holder = await send<{ memories: { id: string }[] }>(b.url, 'GET', '/v1/memories?scope=project:rail');
    expect(holder.body.memories.map((m) => m.id)).toEqual([live[0]?.id]);
  }, 60_000);
});

/** What a turn-loop reply decided, without ids, times or scores that differ between two runs. */
function outcome(reply: Record<string, unknown>): Record<string, unknown> {
  const memories = (reply.memories as { text: string }[] | undefined) ?? [];
  const receipt = reply.receipt as {
    turn: number;
    chosen: { preview: string; outcome: string }[];
    leftOut: { preview: string; outcome: string }[];
  } | null;
  return {
    ...('turn' in reply ? { turn: reply.turn } : {}),
    ...('toolOnlyTurns' in reply ? { toolOnlyTurns: reply.toolOnlyTurns } : {}),
    ...('nudge' in reply ? { nudge: reply.nudge !== null } : {}),
    ...('message' in reply ? { message: reply.message !== null } : {}),
    injected: memories.map((m) => m.text),
    receipt: receipt && {
      turn: receipt.turn,
      chosen: receipt.chosen.map((entry) => [entry.preview, entry.outcome]),
      leftOut: receipt.leftOut.map((entry) => [entry.preview, entry.outcome]),
    },
  };
}

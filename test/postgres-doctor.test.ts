/**
 * `doctorDatabase` on a real PostgreSQL database (a server the test starts itself) damaged on
 * purpose with SQL: full-text words emptied or stale and the GIN index dropped, vectors missing,
 * of the wrong length, with wrong codes or under another tenant, orphaned session rows, graph
 * links broken past their foreign keys, schemas older and newer than this build, a database with
 * no Engram schema and a server that does not answer. Each fault is found and named with its
 * fix; examining changes nothing; the repair fixes what can be rebuilt and keeps every memory.
 */
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { doctorDatabase, type DoctorFinding, type DoctorReport } from '../src/entries/maintenance.js';
import { type Embedder, EngramError, openEngram } from '../src/index.js';
import { indexWords } from '../src/store/postgres/lexical-text.js';
import { POSTGRES_LATEST_VERSION, POSTGRES_MIGRATIONS } from '../src/store/postgres/migrations.js';
import { type PostgresServer, startPostgres } from './fixtures/postgres-server.js';

/** A deterministic embedder: letter frequencies in 8 buckets, so similar texts are near. */
function letterEmbedder(id = 'test:letters'): Embedder & { embedded: number } {
  const embedder = {
    id,
    dimensions: 8,
    embedded: 0,
    embed: async (texts: readonly string[]) => {
      embedder.embedded += texts.length;
      return texts.map((text) => {
        const vector = new Float32Array(8).fill(0.01);
        for (const char of text.toLowerCase()) if (char >= 'a' && char <= 'z') vector[char.charCodeAt(0) % 8]! += 1;
        const norm = Math.hypot(...vector);
        return vector.map((value) => value / norm);
      });
    },
  };
  return embedder;
}

const TEXTS = [
  'We chose PostgreSQL for billing',
  'Alice prefers short answers',
  'Never deploy on Fridays',
  'Caroline moved to Lyon in May 2023',
  'The staging cluster runs on Kubernetes',
];

let server: PostgresServer;
let databases = 0;
let url: string;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

beforeEach(async () => {
  url = await server.createDatabase(`doctor_${++databases}`);
});

/** A database with memories, vectors, a session with receipts and injections, and a graph. */
async function seed(): Promise<void> {
  const engram = await openEngram({ config: { store: { url } }, embedder: letterEmbedder() });
  try {
    for (const text of TEXTS) await engram.remember(text);
    await engram.remember({ text: 'Always answer in English', kind: 'constraint', tier: 'must', hardRule: true });
    const session = engram.session({ id: 's1' });
    await session.start();
    await session.beforeTurn('which database does billing use?');
    await session.beforeTurn('where does Caroline live?');
  } finally {
    await engram.close();
  }
}

/** Runs SQL on the database directly, as a bad restore or a hand edit would leave it. */
async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Runs statements with foreign keys and triggers off, as `pg_restore --disable-triggers` does. */
async function bypassingKeys(...statements: string[]): Promise<void> {
  await sql(`SET session_replication_role = replica; ${statements.join('; ')}`);
}

async function doctor(options: { repair?: boolean; embedder?: Embedder | null } = {}): Promise<DoctorReport> {
  return doctorDatabase({ config: { store: { url } }, embedder: letterEmbedder(), ...options });
}

function problems(report: DoctorReport): DoctorFinding[] {
  return report.findings.filter((finding) => finding.status === 'problem');
}

function checkOf(report: DoctorReport, check: DoctorFinding['check']): DoctorFinding[] {
  return report.findings.filter((finding) => finding.check === check);
}

/** Every memory row, to show a repair lost none and changed none. */
async function memoryRows(): Promise<unknown[]> {
  return sql(`SELECT id, text, kind, tier, scope, archived_at, superseded_by FROM memories ORDER BY id`);
}

async function idOf(text: string): Promise<string> {
  const [row] = await sql<{ id: string }>(`SELECT id FROM memories WHERE text = $1`, [text]);
  return row!.id;
}

describe('a healthy PostgreSQL store', () => {
  it('passes every check, one finding per part, and says the server pages are left to PostgreSQL', async () => {
    await seed();
    const report = await doctor();

    expect(report.healthy).toBe(true);
    expect(report.path).not.toContain(server.password);
    expect(report.schemaVersion).toBe(POSTGRES_LATEST_VERSION);
    expect(report.findings.map((finding) => [finding.check, finding.status])).toEqual([
      ['integrity', 'notice'],
      ['schema', 'ok'],
      ['full_text', 'ok'],
      ['vectors', 'ok'],
      ['embedder', 'ok'],
      ['sessions', 'ok'],
      ['graph', 'ok'],
    ]);
    expect(checkOf(report, 'integrity')[0]?.message).toMatch(/^PostgreSQL \d+\.\d+ answers; .*amcheck is not used/);
    expect(checkOf(report, 'full_text')[0]?.message).toBe('7 memories indexed, every one by the words of its text');
    expect(checkOf(report, 'vectors')[0]?.message).toBe('6 vectors of 8 dimensions, one for each memory');
    expect(checkOf(report, 'graph')[0]?.message).toMatch(/^[1-9]\d* entit(y|ies) and [1-9]\d* mentions?, every link whole$/);
    expect(report.repairs).toEqual([]);
  }, 60_000);

  it('says a database without an Engram schema holds none, and creates none', async () => {
    const report = await doctor({ repair: true });

    expect(report.healthy).toBe(false);
    expect(report.schemaVersion).toBeNull();
    expect(problems(report)).toEqual([
      expect.objectContaining({ check: 'schema', message: expect.stringMatching(/no Engram schema/) }),
    ]);
    expect(report.repairs).toEqual([]);
    expect(await sql(`SELECT to_regclass('engram_schema') AS t`)).toEqual([{ t: null }]);
  }, 60_000);

  it('reports a server that does not answer as database_unavailable, in one line', async () => {
    const failure = await doctorDatabase({ config: { store: { url: 'postgres://engram:secret@127.0.0.1:1/engram' } } }).catch(
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(EngramError);
    expect((failure as EngramError).code).toBe('database_unavailable');
    expect((failure as Error).message).toMatch(/nothing accepts connections there/);
    expect((failure as Error).message).not.toContain('secret');
    expect((failure as Error).message).not.toContain('\n');
  });
});

describe('the full-text words', () => {
  it('finds memories with no words or stale ones, writes them again, and search finds them', async () => {
    await seed();
    const emptied = await idOf('We chose PostgreSQL for billing');
    const stale = await idOf('Never deploy on Fridays');
    await sql(`UPDATE memories SET search_vector = ''::tsvector WHERE id = $1`, [emptied]);
    await sql(`UPDATE memories SET search_vector = to_tsvector('simple', 'unrelated words') WHERE id = $1`, [stale]);
    const before = await memoryRows();

    const found = await doctor();
    expect(found.healthy).toBe(false);
    expect(problems(found)).toEqual([
      {
        check: 'full_text',
        status: 'problem',
        message: `1 memory without full-text words (${emptied}): search by words cannot find them`,
        fix: 'engram doctor --repair writes their words again',
      },
      {
        check: 'full_text',
        status: 'problem',
        message: `1 memory whose full-text words do not match their text (${stale}): search by words misses or misranks them`,
        fix: 'engram doctor --repair writes their words again',
      },
    ]);
    // Examining changed nothing.
    expect(await sql(`SELECT search_vector::text AS v FROM memories WHERE id = $1`, [emptied])).toEqual([{ v: '' }]);

    const repaired = await doctor({ repair: true });
    expect(repaired.repairs).toEqual([{ check: 'full_text', message: 'wrote the full-text words of 2 memories again' }]);
    expect(repaired.healthy).toBe(true);
    expect(await memoryRows()).toEqual(before);
    const engram = await openEngram({ config: { store: { url } }, embedder: letterEmbedder() });
    try {
      expect((await engram.search({ query: 'billing', limit: 3 })).map((hit) => hit.memory.id)).toContain(emptied);
      expect((await engram.search({ query: 'Fridays', limit: 3 })).map((hit) => hit.memory.id)).toContain(stale);
    } finally {
      await engram.close();
    }
  }, 60_000);

  it('finds the word statistics off or gone, counts them again, and the other processes follow', async () => {
    await seed();
    const [{ n, w }] = (await sql(`SELECT count(*)::integer AS n, sum(search_length)::integer AS w FROM memories`)) as [
      { n: number; w: number },
    ];
    // A store that already searched keeps its part counts: the repair must reach it too.
    const engram = await openEngram({ config: { store: { url } }, embedder: letterEmbedder() });
    try {
      const scoresOf = async () =>
        (await engram.search({ query: 'deploy Fridays', limit: 3, mode: 'bm25' })).map((hit) => hit.signals.bm25);
      const right = await scoresOf();
      await sql(`UPDATE search_statistics SET memories = 3, words = 10`);
      expect(problems(await doctor())).toEqual([
        {
          check: 'full_text',
          status: 'problem',
          message: `the word statistics (search_statistics) say 3 memories of 10 words where the store holds ${n} memories of ${w} words: search by words scores with the wrong numbers`,
          fix: 'engram doctor --repair counts them again',
        },
      ]);
      expect(await scoresOf()).not.toEqual(right);

      const repaired = await doctor({ repair: true });
      expect(repaired.repairs).toEqual([{ check: 'full_text', message: 'counted the word statistics again' }]);
      expect(repaired.healthy).toBe(true);
      expect(await scoresOf()).toEqual(right);

      await sql(`DELETE FROM search_statistics`);
      expect(problems(await doctor())).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/^the word statistics \(search_statistics\) are missing where/),
        }),
      ]);
      expect((await doctor({ repair: true })).healthy).toBe(true);
      expect(await sql(`SELECT memories::integer AS n, words::integer AS w FROM search_statistics`)).toEqual([{ n, w }]);
      expect(await scoresOf()).toEqual(right);
    } finally {
      await engram.close();
    }
  }, 60_000);

  it('finds the GIN index gone and builds it again', async () => {
    await seed();
    await sql(`DROP INDEX memories_search`);

    expect(problems(await doctor())).toEqual([
      expect.objectContaining({ check: 'full_text', message: expect.stringMatching(/memories_search is gone/) }),
    ]);
    const repaired = await doctor({ repair: true });
    expect(repaired.healthy).toBe(true);
    expect(await sql(`SELECT indexdef FROM pg_indexes WHERE indexname = 'memories_search'`)).toEqual([
      { indexdef: expect.stringMatching(/USING gin \(search_vector\)/) },
    ]);
  }, 60_000);
});

describe('the CJK words and emoji of the full text', () => {
  /** A database as schema 6 left it (no CJK bigrams or emoji among the words), with these memories. */
  async function writeSchemaSixDatabase(texts: Record<string, string>): Promise<void> {
    for (const migration of POSTGRES_MIGRATIONS.filter((step) => step.version <= 6)) {
      await sql(`CREATE TABLE IF NOT EXISTS engram_schema (
        version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
        ${migration.sql}`);
      await sql(`INSERT INTO engram_schema (version, description) VALUES ($1, $2)`, [migration.version, migration.description]);
    }
    for (const [id, text] of Object.entries(texts)) {
      const words = indexWords(text);
      await sql(
        `INSERT INTO memories (id, tenant, scope, kind, tier, text, source, trust, tags, occurred_at, created_at, updated_at,
           search_vector, search_length)
         VALUES ($1, 'default', 'global', 'note', 'unknown', $2, 'user', 1, '[]', 0, 0, 0,
           setweight(to_tsvector('engram_text', $3), 'A') || setweight(to_tsvector('engram_text', ''), 'B')
             || setweight(to_tsvector('engram_text', ''), 'C') || setweight(to_tsvector('engram_text', ''), 'D'), $4)`,
        [id, text, words.join(' '), words.length],
      );
    }
  }

  it('upgrades a schema-6 database so its Japanese and emoji memories are found by their characters, and every check passes', async () => {
    await writeSchemaSixDatabase({
      ja: 'ユーザーは日本語での回答を好みます',
      emoji: 'Emoji test 🚀🔥 launch day',
      en: 'We chose PostgreSQL for billing',
    });
    const english = await sql(`SELECT search_vector::text AS words, search_length FROM memories WHERE id = 'en'`);

    const engram = await openEngram({ config: { store: { url } }, embedder: null });
    try {
      expect((await engram.search({ query: '🚀', mode: 'bm25' })).map((hit) => hit.memory.id)).toEqual(['emoji']);
      expect((await engram.search({ query: '日本語', mode: 'bm25' })).map((hit) => hit.memory.id)).toEqual(['ja']);
    } finally {
      await engram.close();
    }

    expect(await sql(`SELECT search_vector::text AS words, search_length FROM memories WHERE id = 'en'`)).toEqual(english);
    const report = await doctor({ embedder: null });
    expect(report.schemaVersion).toBe(POSTGRES_LATEST_VERSION);
    expect(problems(report)).toEqual([]);
    expect(checkOf(report, 'full_text')[0]?.status).toBe('ok');
  }, 60_000);
});

describe('the vectors', () => {
  it('embeds a memory that lost its vector with the embedder that made the others', async () => {
    await seed();
    const lost = await idOf('Alice prefers short answers');
    await sql(`DELETE FROM memory_embeddings WHERE rowid = (SELECT rowid FROM memories WHERE id = $1)`, [lost]);
    const [{ change: changeBefore }] = (await sql<{ change: number }>(`SELECT change::int FROM vector_change_count`)) as [
      { change: number },
    ];

    const found = await doctor();
    expect(problems(found)).toEqual([
      {
        check: 'vectors',
        status: 'problem',
        message: `1 memory without a vector (${lost}): search by meaning cannot find them`,
        fix: 'engram doctor --repair embeds them when the configured embedder made the other vectors; otherwise engram reindex does',
      },
    ]);

    const embedder = letterEmbedder();
    const repaired = await doctor({ repair: true, embedder });
    expect(repaired.repairs).toEqual([{ check: 'vectors', message: 'embedded 1 memory that had no vector, with test:letters' }]);
    expect(embedder.embedded).toBe(1);
    expect(repaired.healthy).toBe(true);
    // The other servers on this database see the vectors changed and rebuild their indexes.
    const [{ change }] = (await sql<{ change: number }>(`SELECT change::int FROM vector_change_count`)) as [{ change: number }];
    expect(change).toBeGreaterThan(changeBefore);
  }, 60_000);

  it('replaces vectors of the wrong length, recomputes wrong codes and moves misfiled vectors', async () => {
    await seed();
    const short = await idOf('Never deploy on Fridays');
    const badCode = await idOf('Caroline moved to Lyon in May 2023');
    const misfiled = await idOf('The staging cluster runs on Kubernetes');
    const rowid = `(SELECT rowid FROM memories WHERE id = $1)`;
    await sql(`UPDATE memory_embeddings SET vector = substring(vector from 1 for 16) WHERE rowid = ${rowid}`, [short]);
    await sql(`UPDATE memory_embeddings SET code = '\\x00'::bytea WHERE rowid = ${rowid}`, [badCode]);
    await sql(`UPDATE memory_embeddings SET tenant = 'someone-else' WHERE rowid = ${rowid}`, [misfiled]);
    const before = await memoryRows();

    const found = problems(await doctor()).map((finding) => [finding.message, finding.fix]);
    expect(found).toEqual([
      ['1 vector filed under another tenant than its memory', 'engram doctor --repair moves them'],
      ['1 vector not of the recorded 8 dimensions', 'engram doctor --repair removes them and embeds those memories again'],
      ['1 binary code of the wrong length', 'engram doctor --repair recomputes them'],
    ]);

    const repaired = await doctor({ repair: true });
    expect(repaired.repairs.map((repair) => repair.message)).toEqual([
      "moved vectors to their memory's tenant (1)",
      'removed vectors not of 8 dimensions, to be embedded again (1)',
      'recomputed binary codes of the wrong length (1)',
      'embedded 1 memory that had no vector, with test:letters',
    ]);
    expect(repaired.healthy).toBe(true);
    expect(await memoryRows()).toEqual(before);
    expect(await sql(`SELECT count(*)::int AS n FROM memory_embeddings WHERE length(vector) = 32`)).toEqual([{ n: 6 }]);
  }, 60_000);

  it('says when the configured embedder is not the one that made the vectors, and leaves them', async () => {
    await seed();
    const report = await doctor({ repair: true, embedder: letterEmbedder('test:other') });

    expect(problems(report)).toEqual([
      expect.objectContaining({
        check: 'embedder',
        message: expect.stringMatching(/indexed with test:letters .* but the configured embedder is test:other/),
        fix: expect.stringMatching(/^engram reindex re-embeds every memory/),
      }),
    ]);
    expect(report.repairs).toEqual([]);
    expect(await sql(`SELECT count(*)::int AS n FROM memory_embeddings`)).toEqual([{ n: 6 }]);
  }, 60_000);
});

describe('the session rows and the graph', () => {
  it('deletes receipts and injections whose session is gone, and keeps every memory', async () => {
    await seed();
    const [{ receipts, injections }] = (await sql<{ receipts: number; injections: number }>(
      `SELECT (SELECT count(*)::int FROM receipts) AS receipts, (SELECT count(*)::int FROM injections) AS injections`,
    )) as [{ receipts: number; injections: number }];
    expect(receipts).toBeGreaterThan(0);
    expect(injections).toBeGreaterThan(0);
    await sql(`DELETE FROM sessions`);
    const before = await memoryRows();

    expect(problems(await doctor())).toEqual([
      {
        check: 'sessions',
        status: 'problem',
        message: `orphaned session rows: ${receipts} receipts whose session is gone, ${injections} injections whose session, receipt or memory is gone`,
        fix: 'engram doctor --repair deletes them',
      },
    ]);
    const repaired = await doctor({ repair: true });
    expect(repaired.repairs).toEqual([
      { check: 'sessions', message: `deleted orphaned session rows: ${receipts} receipts, ${injections} injections` },
    ]);
    expect(repaired.healthy).toBe(true);
    expect(await memoryRows()).toEqual(before);
  }, 60_000);

  it('removes mentions and relations of an entity deleted past its foreign keys, keeping memories', async () => {
    await seed();
    const [entity] = await sql<{ rowid: number; mentions: number }>(
      `SELECT e.rowid, count(*)::int AS mentions FROM entities e JOIN mentions x ON x.entity_rowid = e.rowid
       GROUP BY e.rowid ORDER BY e.rowid LIMIT 1`,
    );
    expect(entity).toBeDefined();
    await bypassingKeys(`DELETE FROM entities WHERE rowid = ${entity!.rowid}`);
    const before = await memoryRows();

    const found = problems(await doctor());
    expect(found).toEqual([
      expect.objectContaining({
        check: 'graph',
        message: expect.stringMatching(
          new RegExp(`^broken links: ${entity!.mentions} mentions? of a memory or entity that is gone`),
        ),
        fix: 'engram doctor --repair removes them',
      }),
    ]);
    const repaired = await doctor({ repair: true });
    expect(repaired.repairs).toEqual([
      expect.objectContaining({ check: 'graph', message: expect.stringMatching(/^mended broken links: /) }),
    ]);
    expect(repaired.healthy).toBe(true);
    expect(await sql(`SELECT count(*)::int AS n FROM mentions WHERE entity_rowid = $1`, [entity!.rowid])).toEqual([{ n: 0 }]);
    expect(await memoryRows()).toEqual(before);
  }, 60_000);
});

describe('the schema', () => {
  it('refuses to touch a database of a newer Engram and says to upgrade', async () => {
    await seed();
    await sql(`INSERT INTO engram_schema (version, description) VALUES ($1, 'from the future')`, [POSTGRES_LATEST_VERSION + 1]);
    await sql(`UPDATE memories SET search_vector = ''::tsvector`);
    const [{ n: memories }] = (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM memories`)) as [{ n: number }];

    const report = await doctor({ repair: true });
    expect(report.schemaVersion).toBe(POSTGRES_LATEST_VERSION + 1);
    expect(problems(report)).toEqual([
      {
        check: 'schema',
        status: 'problem',
        message: `schema ${POSTGRES_LATEST_VERSION + 1}, written by a newer Engram (this one understands up to ${POSTGRES_LATEST_VERSION}); nothing else was checked`,
        fix: 'upgrade Engram to use this database',
      },
    ]);
    expect(report.repairs).toEqual([]);
    expect(await sql(`SELECT count(*)::int AS n FROM memories WHERE search_vector = ''::tsvector`)).toEqual([{ n: memories }]);
  }, 60_000);

  it('calls an older schema a notice, checks what it has, and upgrades it on repair', async () => {
    // A database as the previous Engram left it: every step but the newest.
    for (const migration of POSTGRES_MIGRATIONS.slice(0, -1)) {
      await sql(`CREATE TABLE IF NOT EXISTS engram_schema (
        version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
        ${migration.sql}`);
      await sql(`INSERT INTO engram_schema (version, description) VALUES ($1, $2)`, [migration.version, migration.description]);
    }
    const older = POSTGRES_LATEST_VERSION - 1;

    const found = await doctor();
    expect(found.healthy).toBe(true);
    expect(found.schemaVersion).toBe(older);
    expect(checkOf(found, 'schema')).toEqual([
      {
        check: 'schema',
        status: 'notice',
        message: `schema ${older}, older than this Engram's ${POSTGRES_LATEST_VERSION}: it is upgraded the next time Engram opens it`,
        fix: 'engram doctor --repair upgrades it now',
      },
    ]);
    expect(checkOf(found, 'full_text')[0]?.status).toBe('ok');
    expect(await sql(`SELECT max(version) AS v FROM engram_schema`)).toEqual([{ v: older }]);

    const repaired = await doctor({ repair: true });
    expect(repaired.repairs).toEqual([
      { check: 'schema', message: `upgraded the schema from ${older} to ${POSTGRES_LATEST_VERSION}` },
    ]);
    expect(repaired.schemaVersion).toBe(POSTGRES_LATEST_VERSION);
    expect(checkOf(repaired, 'schema')[0]?.status).toBe('ok');
  }, 60_000);
});

/**
 * `doctorDatabase` against real SQLite files damaged on purpose: rows deleted from or added to
 * the full-text index, stray, misfiled and missing vectors, orphaned session rows, broken graph
 * links, a damaged index page and a damaged table page, schemas older and newer than this build.
 * Each damage is found, named and — where it can be rebuilt without losing a memory — repaired,
 * and the repaired file passes every check with every memory still there.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { doctorDatabase, type DoctorFinding, type DoctorReport } from '../src/entries/maintenance.js';
import { type Embedder, EngramError, openEngram } from '../src/index.js';
import { LATEST_VERSION } from '../src/store/sqlite/migrations.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

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

let directory: string;
let file: string;

beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'engram-doctor-'));
  file = path.join(directory, 'engram.db');
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** A database with memories, vectors, a session with receipts and injections, and a graph. */
async function seed(): Promise<void> {
  const engram = await openEngram({ path: file, embedder: letterEmbedder() });
  for (const text of TEXTS) await engram.remember(text);
  await engram.remember({ text: 'Always answer in English', kind: 'constraint', tier: 'must', hardRule: true });
  const session = engram.session({ id: 's1' });
  await session.start();
  await session.beforeTurn('which database does billing use?');
  await session.beforeTurn('where does Caroline live?');
  await engram.close();
}

/** Runs SQL against the file directly, as a damaged or hand-edited file would have it. */
function damage(...statements: string[]): void {
  const db = new Database(file);
  try {
    sqliteVec.load(db);
    for (const sql of statements) db.exec(sql);
  } finally {
    db.close();
  }
}

function query<T>(sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

function problems(report: DoctorReport): DoctorFinding[] {
  return report.findings.filter((finding) => finding.status === 'problem');
}

function checkOf(report: DoctorReport, check: DoctorFinding['check']): DoctorFinding[] {
  return report.findings.filter((finding) => finding.check === check);
}

/** Every memory row, to show a repair lost none and changed none. */
function memoryRows(): unknown[] {
  return query(`SELECT id, text, kind, tier, scope, archived_at, superseded_by FROM memories ORDER BY id`);
}

function fileHash(): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

async function doctor(options: { repair?: boolean; embedder?: Embedder | null } = {}): Promise<DoctorReport> {
  return doctorDatabase({ path: file, embedder: letterEmbedder(), ...options });
}

describe('a healthy database', () => {
  it('passes every check, one ok finding per part', async () => {
    await seed();
    const report = await doctor();

    expect(report.healthy).toBe(true);
    expect(report.schemaVersion).toBe(LATEST_VERSION);
    expect(report.findings.map((finding) => [finding.check, finding.status])).toEqual([
      ['integrity', 'ok'],
      ['schema', 'ok'],
      ['full_text', 'ok'],
      ['vectors', 'ok'],
      ['embedder', 'ok'],
      ['sessions', 'ok'],
      ['graph', 'ok'],
      ['space', 'ok'],
    ]);
    expect(checkOf(report, 'vectors')[0]?.message).toBe('6 vectors of 8 dimensions, one for each memory');
    expect(checkOf(report, 'space')[0]?.message).toMatch(/^the file takes \d+\.\d MB \(\d+ bytes a memory in use\)$/);
    expect(report.repairs).toEqual([]);
  });

  it('stays healthy after a memory that recall injected is deleted for good', async () => {
    await seed();
    const [injected] = query<{ memory_id: string }>(`SELECT memory_id FROM injections LIMIT 1`);
    expect(injected).toBeDefined();
    const engram = await openEngram({ path: file, embedder: letterEmbedder() });
    await engram.forget(injected!.memory_id, { hard: true });
    await engram.close();

    expect(problems(await doctor())).toEqual([]);
  });

  it('refuses a file that does not exist, and creates none', async () => {
    const error = await doctor().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: 'database_missing' });
    expect(existsSync(file)).toBe(false);
  });
});

describe('the full-text index', () => {
  it('finds memories missing from it, rebuilds it, and search finds them again', async () => {
    await seed();
    damage(
      `INSERT INTO memories_fts (memories_fts, rowid, text, abstract, tags, context)
         SELECT 'delete', rowid, text, abstract, tags, context FROM memories WHERE text LIKE '%billing%' OR text LIKE '%Fridays%'`,
    );
    const before = memoryRows();

    const found = await doctor();
    expect(found.healthy).toBe(false);
    expect(problems(found)).toEqual([
      expect.objectContaining({
        check: 'full_text',
        message: expect.stringMatching(/^2 memories missing from the full-text index \(\w+, \w+\)/),
        fix: 'engram doctor --repair rebuilds the index',
      }),
    ]);

    const repaired = await doctor({ repair: true });
    expect(repaired.repairs).toEqual([{ check: 'full_text', message: 'rebuilt the full-text index from the memories' }]);
    expect(repaired.healthy).toBe(true);
    expect(problems({ ...repaired, findings: repaired.before ?? [] })).toHaveLength(1);
    expect(memoryRows()).toEqual(before);
    const store = new SqliteStore(file);
    try {
      expect(await store.searchLexical({ tenant: 'default' }, 'billing', 5)).toHaveLength(1);
      expect(await store.searchLexical({ tenant: 'default' }, 'Fridays', 5)).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('finds rows without a memory and words that do not match the text', async () => {
    await seed();
    damage(`INSERT INTO memories_fts (rowid, text, abstract, tags, context) VALUES (9999, 'ghost row', NULL, '[]', NULL)`);
    expect(problems(await doctor()).map((finding) => finding.message)).toEqual(['1 full-text row without a memory']);
    expect((await doctor({ repair: true })).healthy).toBe(true);

    // The index still has a row for every memory, but with other words.
    damage(
      `INSERT INTO memories_fts (memories_fts, rowid, text, abstract, tags, context)
         SELECT 'delete', rowid, text, abstract, tags, context FROM memories WHERE text LIKE '%Alice%'`,
      `INSERT INTO memories_fts (rowid, text, abstract, tags, context)
         SELECT rowid, 'completely different words', abstract, tags, context FROM memories WHERE text LIKE '%Alice%'`,
    );
    expect(problems(await doctor()).map((finding) => finding.message)).toEqual([
      "the full-text index does not hold the words of the memories' text",
    ]);
    expect((await doctor({ repair: true })).healthy).toBe(true);
  });
});

describe('the CJK words and emoji of the full-text index', () => {
  it('finds memories whose CJK words and emoji are not indexed, writes them again, and search finds them', async () => {
    const engram = await openEngram({ path: file, embedder: letterEmbedder() });
    await engram.remember('ユーザーは日本語での回答を好みます');
    await engram.remember('Emoji test 🚀🔥 launch day');
    await engram.remember('We chose PostgreSQL for billing');
    await engram.close();
    // As a process of an older Engram, open while the file was upgraded, would have written them.
    damage(`UPDATE memories SET segment_terms = NULL WHERE segment_terms IS NOT NULL`);
    const before = memoryRows();

    const found = await doctor();
    expect(found.healthy).toBe(false);
    expect(problems(found)).toEqual([
      expect.objectContaining({
        check: 'full_text',
        message: expect.stringMatching(
          /^2 memories whose CJK words and emoji in the full-text index do not match their text \(\w+, \w+\): search by those characters misses or misranks them$/,
        ),
        fix: 'engram doctor --repair writes them again',
      }),
    ]);

    const repaired = await doctor({ repair: true });
    expect(repaired.repairs).toEqual([
      { check: 'full_text', message: 'wrote the CJK words and emoji of 2 memories again' },
      { check: 'full_text', message: 'rebuilt the full-text index from the memories' },
    ]);
    expect(repaired.healthy).toBe(true);
    expect(memoryRows()).toEqual(before);
    const store = new SqliteStore(file);
    try {
      expect(await store.searchLexical({ tenant: 'default' }, '🚀', 5)).toHaveLength(1);
      expect(await store.searchLexical({ tenant: 'default' }, '日本語', 5)).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});

describe('the vectors', () => {
  it('removes vectors without a memory and moves misfiled ones to their tenant', async () => {
    await seed();
    damage(
      `INSERT INTO memory_embeddings (rowid, tenant, vector, code)
         SELECT 9999, tenant, vector, code FROM memory_embeddings LIMIT 1`,
      `UPDATE memory_embeddings SET tenant = 'intruder' WHERE rowid = (SELECT min(rowid) FROM memory_embeddings)`,
    );
    const before = memoryRows();

    expect(problems(await doctor()).map((finding) => finding.message)).toEqual([
      '1 vector without a memory',
      '1 vector filed under another tenant than its memory',
    ]);
    const repaired = await doctor({ repair: true });
    expect(repaired.repairs.map((repair) => repair.message)).toEqual([
      'removed vectors without a memory (1)',
      "moved vectors to their memory's tenant (1)",
    ]);
    expect(repaired.healthy).toBe(true);
    expect(memoryRows()).toEqual(before);
    expect(query(`SELECT count(*) AS n FROM memory_embeddings`)).toEqual([{ n: 6 }]);
  });

  it('embeds memories that lost their vector with the embedder that made the others', async () => {
    await seed();
    const [original] = query<{ vector: Buffer }>(`SELECT vector FROM memory_embeddings ORDER BY rowid LIMIT 1`);
    damage(`DELETE FROM memory_embeddings WHERE rowid IN (SELECT rowid FROM memory_embeddings ORDER BY rowid LIMIT 2)`);

    const found = await doctor();
    expect(problems(found)).toEqual([
      expect.objectContaining({ check: 'vectors', message: expect.stringMatching(/^2 memories without a vector/) }),
    ]);

    // Without an embedder nothing can be embedded: the problem stays, and says what will fix it.
    const lexical = await doctor({ repair: true, embedder: null });
    expect(lexical.healthy).toBe(false);
    expect(problems(lexical).map((finding) => finding.check)).toEqual(['vectors', 'embedder']);
    expect(problems(lexical)[0]?.fix).toContain('engram reindex');

    const embedder = letterEmbedder();
    const repaired = await doctor({ repair: true, embedder });
    expect(repaired.repairs).toEqual([
      { check: 'vectors', message: 'embedded 2 memories that had no vector, with test:letters' },
    ]);
    expect(embedder.embedded).toBe(2);
    expect(repaired.healthy).toBe(true);
    const [restored] = query<{ vector: Buffer }>(`SELECT vector FROM memory_embeddings ORDER BY rowid LIMIT 1`);
    expect(restored?.vector.equals(original!.vector)).toBe(true);
  });

  it('replaces vectors of the wrong length and recomputes wrong binary codes', async () => {
    await seed();
    damage(
      `UPDATE memory_embeddings SET vector = zeroblob(20) WHERE rowid = (SELECT min(rowid) FROM memory_embeddings)`,
      `UPDATE memory_embeddings SET code = zeroblob(12) WHERE rowid = (SELECT max(rowid) FROM memory_embeddings)`,
    );
    expect(problems(await doctor()).map((finding) => finding.message)).toEqual([
      '1 vector not of the recorded 8 dimensions',
      '1 binary code of the wrong length',
    ]);
    const repaired = await doctor({ repair: true });
    expect(repaired.repairs.map((repair) => repair.message)).toEqual([
      'removed vectors not of 8 dimensions, to be embedded again (1)',
      'recomputed binary codes of the wrong length (1)',
      'embedded 1 memory that had no vector, with test:letters',
    ]);
    expect(repaired.healthy).toBe(true);
  });

  it('says when the configured embedder is not the one that made the vectors, and leaves them', async () => {
    await seed();
    const report = await doctor({ repair: true, embedder: letterEmbedder('test:other') });
    expect(problems(report)).toEqual([
      expect.objectContaining({
        check: 'embedder',
        message:
          'the database was indexed with test:letters (8 dims), but the configured embedder is test:other: search and new memories are refused until they agree',
        fix: expect.stringContaining('engram reindex'),
      }),
    ]);
    expect(report.repairs).toEqual([]);
    expect(query(`SELECT count(*) AS n FROM memory_embeddings`)).toEqual([{ n: 6 }]);
  });

  it('finds vectors in a database recorded as lexical-only', async () => {
    const engram = await openEngram({ path: file, embedder: null });
    await engram.remember('We chose PostgreSQL for billing');
    await engram.close();
    damage(`INSERT INTO memory_embeddings (rowid, tenant, vector, code) VALUES (1, 'default', zeroblob(32), zeroblob(4))`);

    const report = await doctor({ embedder: null });
    expect(problems(report).map((finding) => finding.message)).toEqual(['1 vector in a database recorded as lexical-only']);
    expect((await doctor({ repair: true, embedder: null })).healthy).toBe(true);
    expect(query(`SELECT count(*) AS n FROM memory_embeddings`)).toEqual([{ n: 0 }]);
  });
});

describe('session rows', () => {
  it('deletes receipts and injections whose session, receipt or memory is gone, and keeps the rest', async () => {
    await seed();
    const receipts = query<{ n: number }>(`SELECT count(*) AS n FROM receipts`)[0]!.n;
    const injections = query<{ n: number }>(`SELECT count(*) AS n FROM injections`)[0]!.n;
    expect(receipts).toBe(2);
    expect(injections).toBeGreaterThan(0);
    damage(
      `INSERT INTO sessions (tenant, id, body) SELECT tenant, 's2', body FROM sessions WHERE id = 's1'`,
      `UPDATE receipts SET session_id = 's2' WHERE rowid = (SELECT max(rowid) FROM receipts)`,
      `UPDATE injections SET session_id = 's2' WHERE receipt_id = (SELECT id FROM receipts WHERE session_id = 's2')`,
      // s2 goes, leaving its receipt and injections; and an injection of a memory that never was.
      `DELETE FROM sessions WHERE id = 's2'`,
      `INSERT INTO injections (tenant, session_id, turn, memory_id, lane, receipt_id)
         SELECT tenant, session_id, turn, 'no-such-memory', lane, receipt_id FROM injections WHERE session_id = 's1' LIMIT 1`,
    );
    const orphanInjections = query<{ n: number }>(`SELECT count(*) AS n FROM injections WHERE session_id = 's2'`)[0]!.n + 1;

    expect(problems(await doctor())).toEqual([
      expect.objectContaining({
        check: 'sessions',
        message: `orphaned session rows: 1 receipt whose session is gone, ${orphanInjections} ${
          orphanInjections === 1 ? 'injection' : 'injections'
        } whose session, receipt or memory is gone`,
      }),
    ]);
    const repaired = await doctor({ repair: true });
    expect(repaired.healthy).toBe(true);
    expect(query(`SELECT count(*) AS n FROM receipts`)).toEqual([{ n: 1 }]);
    expect(query(`SELECT count(*) AS n FROM injections`)).toEqual([{ n: injections - orphanInjections + 1 }]);
    expect(query(`SELECT id FROM sessions`)).toEqual([{ id: 's1' }]);
  });
});

describe('the graph', () => {
  it('removes mentions and relations that point at what is gone, keeping entities and memories', async () => {
    await seed();
    const entities = query(`SELECT * FROM entities ORDER BY rowid`);
    expect(entities.length).toBeGreaterThan(0);
    damage(
      `INSERT INTO mentions (entity_rowid, memory_rowid, role) SELECT min(rowid), 9999, 'subject' FROM entities`,
      `INSERT INTO relations (tenant, id, from_rowid, to_rowid, type, memory_rowid, created_at)
         SELECT tenant, 'r-broken', rowid, 9999, 'knows', NULL, 0 FROM entities LIMIT 1`,
      `INSERT INTO relations (tenant, id, from_rowid, to_rowid, type, memory_rowid, created_at)
         SELECT tenant, 'r-sourceless', rowid, rowid, 'is', 9999, 0 FROM entities LIMIT 1`,
    );
    expect(problems(await doctor()).map((finding) => finding.message)).toEqual([
      'broken links: 1 mention of a memory or entity that is gone, 1 relation to an entity that is gone, 1 relation naming a source memory that is gone',
    ]);
    expect((await doctor({ repair: true })).healthy).toBe(true);
    expect(query(`SELECT * FROM entities ORDER BY rowid`)).toEqual(entities);
    expect(query(`SELECT id, memory_rowid FROM relations WHERE id LIKE 'r-%'`)).toEqual([
      { id: 'r-sourceless', memory_rowid: null },
    ]);
  });
});

/** Overwrites the file's bytes at `position`, as a failing disk or a stray write would. */
function overwrite(position: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, position);
  } finally {
    closeSync(fd);
  }
}

/** Overwrites bytes of the root page of table or index `name`, at `offset` from the page's start (negative: from its end). */
function corruptPage(name: string, offset: number, bytes: number[]): void {
  const db = new Database(file, { readonly: true });
  const root = db.prepare(`SELECT rootpage FROM sqlite_master WHERE name = ?`).pluck().get(name) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  overwrite((root - 1) * pageSize + (offset < 0 ? pageSize + offset : offset), Buffer.from(bytes));
}

/** Overwrites the header of the full-text index's largest segment leaf, where it lies in the file. */
function corruptFullTextSegment(): void {
  const [segment] = query<{ block: Buffer }>(
    `SELECT block FROM memories_fts_data WHERE id > 10 ORDER BY length(block) DESC LIMIT 1`,
  );
  const at = readFileSync(file).indexOf(segment!.block);
  expect(at).toBeGreaterThan(0);
  overwrite(at, Buffer.alloc(4, 0xff)); // the leaf's header: offsets past its end
}

describe('a damaged file', () => {
  it('rebuilds an index whose page lost entries, and every memory is still there', async () => {
    await seed();
    const before = memoryRows();
    corruptPage('memories_by_tenant_created', -3, [0x7f, 0x7f]);

    const found = await doctor();
    expect(problems(found)).toEqual([
      expect.objectContaining({
        check: 'integrity',
        message: expect.stringMatching(/^SQLite finds the file damaged: row \d+ missing from index memories_by_tenant_created/),
        fix: 'engram doctor --repair rebuilds the damaged indexes from the tables',
      }),
    ]);
    const repaired = await doctor({ repair: true });
    expect(repaired.repairs[0]).toEqual({ check: 'integrity', message: 'rebuilt every index from its table' });
    expect(repaired.healthy).toBe(true);
    expect(memoryRows()).toEqual(before);
  });

  it('rebuilds a full-text index whose pages are damaged, and search finds every memory again', async () => {
    await seed();
    const before = memoryRows();
    corruptFullTextSegment();

    const found = await doctor();
    expect(checkOf(found, 'integrity')[0]).toMatchObject({
      status: 'problem',
      message: expect.stringMatching(/^SQLite finds the file damaged: fts5: .*"memories_fts"/),
      fix: 'engram doctor --repair rebuilds the damaged indexes from the tables',
    });
    expect(checkOf(found, 'full_text')[0]?.status).toBe('problem');

    const repaired = await doctor({ repair: true });
    expect(repaired.repairs.map((repair) => repair.check)).toEqual(['integrity', 'full_text']);
    expect(repaired.healthy).toBe(true);
    expect(memoryRows()).toEqual(before);
    const store = new SqliteStore(file);
    try {
      for (const word of ['billing', 'Fridays', 'Kubernetes']) {
        expect(await store.searchLexical({ tenant: 'default' }, word, 5), word).toHaveLength(1);
      }
    } finally {
      await store.close();
    }
  });

  it('promises no repair it will not make when other pages are damaged too', async () => {
    await seed();
    damage(
      `INSERT INTO memories_fts (memories_fts, rowid, text, abstract, tags, context)
         SELECT 'delete', rowid, text, abstract, tags, context FROM memories WHERE text LIKE '%billing%'`,
    );
    corruptPage('activity_log', 0, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    const hash = fileHash();

    const report = await doctor({ repair: true });
    expect(report.repairs).toEqual([]);
    expect(checkOf(report, 'full_text')[0]).toMatchObject({
      status: 'problem',
      message: expect.stringMatching(/^1 memory missing from the full-text index/),
      fix: 'once the damage SQLite found is dealt with (see the integrity finding)',
    });
    expect(report.findings.filter((finding) => finding.fix?.startsWith('engram doctor --repair'))).toEqual([]);
    // The memories still read back, so the way out it gives is a copy of them (test/cli/messages.test.ts follows it).
    expect(checkOf(report, 'integrity')[0]?.fix).toMatch(
      /^every memory still reads back: copy \d+ memories into a new file with engram export --db \S+engram\.db \| engram import --db \S+engram-recovered\.db, then use that file/,
    );
    expect(fileHash()).toBe(hash);
  });

  it('says only a backup brings back a truncated file, whose schema cannot be read', async () => {
    await seed();
    truncateSync(file, Math.floor(statSync(file).size / 2));

    const report = await doctor({ repair: true });
    expect(report.repairs).toEqual([]);
    expect(problems(report).map((finding) => [finding.check, finding.fix])).toEqual([
      [
        'integrity',
        "SQLite cannot read this file's schema, so nothing can be copied out of it: restore a backup (engram backup makes one): point --db at it, or copy it over this file while no process has it open; --repair does not write into a file damaged like this",
      ],
      ['schema', null],
    ]);
  });

  it('says a file that is not a database at all is not one, and changes nothing', async () => {
    writeFileSync(file, 'these are notes, not a database\n'.repeat(200));
    const hash = fileHash();

    const report = await doctor({ repair: true });
    expect(report.healthy).toBe(false);
    expect(problems(report).map((finding) => finding.check)).toEqual(['integrity', 'schema']);
    expect(checkOf(report, 'integrity')[0]).toMatchObject({
      message: 'not a SQLite database, or one whose first page is damaged (file is not a database)',
      fix: expect.stringMatching(/^point --db at an Engram database; if this was one, restore a backup/),
    });
    expect(fileHash()).toBe(hash);
  });

  it('does not write into a file whose table pages are damaged, and says how to recover', async () => {
    await seed();
    corruptPage('memories', 0, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    const hash = fileHash();

    const report = await doctor({ repair: true });
    expect(report.healthy).toBe(false);
    expect(report.repairs).toEqual([]);
    const [integrity] = checkOf(report, 'integrity');
    expect(integrity).toMatchObject({ status: 'problem', message: expect.stringMatching(/^SQLite finds the file damaged: /) });
    // The memories' own pages are damaged, so no export can copy them: a backup is the way out.
    expect(integrity?.fix).toMatch(
      /^the memories themselves cannot all be read \(.+\), so engram export cannot copy them either: restore a backup .*; --repair does not write into a file damaged like this$/,
    );
    expect(fileHash()).toBe(hash);
  });
});

describe('the schema version', () => {
  it('checks only the integrity of a file from a newer Engram, and changes nothing', async () => {
    await seed();
    damage(`PRAGMA user_version = ${LATEST_VERSION + 1}`);
    const hash = fileHash();

    const report = await doctor({ repair: true });
    expect(report.findings.map((finding) => [finding.check, finding.status])).toEqual([
      ['integrity', 'ok'],
      ['schema', 'problem'],
    ]);
    expect(report.findings[1]).toMatchObject({
      message: `schema ${LATEST_VERSION + 1}, written by a newer Engram (this one understands up to ${LATEST_VERSION}); only its integrity was checked`,
      fix: 'upgrade Engram to use this database',
    });
    expect(report.repairs).toEqual([]);
    expect(fileHash()).toBe(hash);
  });

  it('calls an older schema a notice, checks what it has, and upgrades it on repair', async () => {
    const old = new SqliteStore(file, { migrateTo: 5 });
    old.connection
      .prepare(
        `INSERT INTO memories (id, tenant, scope, kind, tier, text, source, trust, occurred_at, created_at, updated_at)
         VALUES ('old', 'default', 'global', 'note', 'unknown', 'Alice met Bob in Paris', 'user', 1, 0, 0, 0)`,
      )
      .run();
    await old.close();

    const report = await doctor();
    expect(report.healthy).toBe(true);
    expect(checkOf(report, 'schema')[0]).toMatchObject({ status: 'notice', message: expect.stringMatching(/^schema 5, older/) });
    expect(report.findings.map((finding) => finding.check)).not.toContain('graph');

    const repaired = await doctor({ repair: true });
    expect(repaired.repairs).toEqual([{ check: 'schema', message: `upgraded the schema from 5 to ${LATEST_VERSION}` }]);
    expect(repaired.schemaVersion).toBe(LATEST_VERSION);
    expect(repaired.healthy).toBe(true);
    expect(checkOf(repaired, 'graph')[0]?.status).toBe('ok');
    expect(query(`SELECT id, text FROM memories`)).toEqual([{ id: 'old', text: 'Alice met Bob in Paris' }]);
  });

  it('passes every check on a version 9 file with Japanese and emoji memories once Engram has upgraded it', async () => {
    const old = new SqliteStore(file, { migrateTo: 9 });
    const insert = old.connection.prepare(
      `INSERT INTO memories (id, tenant, scope, kind, tier, text, tags, source, trust, occurred_at, created_at, updated_at)
       VALUES (?, 'default', 'global', 'note', 'unknown', ?, ?, 'user', 1, 0, 0, 0)`,
    );
    insert.run('ja', 'ユーザーは日本語での回答を好みます', '[]');
    insert.run('emoji', 'Emoji test 🚀🔥 launch day', '["🎉"]');
    insert.run('en', 'We chose PostgreSQL for billing', '[]');
    await old.close();
    await (await openEngram({ path: file, embedder: null })).close();

    const report = await doctor({ embedder: null });

    expect(report.schemaVersion).toBe(LATEST_VERSION);
    expect(problems(report)).toEqual([]);
    expect(report.healthy).toBe(true);
    expect(checkOf(report, 'full_text')[0]?.status).toBe('ok');
    const store = new SqliteStore(file);
    try {
      expect((await store.searchLexical({ tenant: 'default' }, '🚀', 5)).map((hit) => hit.id)).toEqual(['emoji']);
    } finally {
      await store.close();
    }
  });

  it('names a SQLite file that is not Engram’s', async () => {
    damage(`CREATE TABLE notes (text TEXT)`);
    const report = await doctor();
    expect(report.healthy).toBe(false);
    expect(checkOf(report, 'schema')[0]?.message).toBe('a SQLite database, but not an Engram one; nothing else was checked');
  });
});

/**
 * `engram import` with the files a new user holds, run as a real child process on a real
 * SQLite file: records with only `text`, a JSON array, the MCP reference memory server's
 * `memory.jsonl` (then read back by an agent with `read_graph` over MCP), and a file with one
 * bad line — refused with its line (and array index) and field, the database left exactly as
 * it was.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { referenceMemoryFile, SAMPLE_GRAPH } from '../fixtures/reference-memory.js';
import { callTool, connectStdio } from '../mcp/helpers.js';
import {
  copyDatabase,
  dbIn,
  expectOneLineError,
  type ExportedMemory,
  exportMemories,
  LEXICAL,
  makeTempDir,
  runCli,
  runJson,
  runOk,
  syntheticRecord,
} from './helpers.js';

/** Every row of every ordinary table (the search indexes' own tables included): for "nothing changed". */
function everyRow(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name`)
      .pluck()
      .all() as string[];
    return Object.fromEntries(tables.map((table) => [table, db.prepare(`SELECT * FROM "${table}"`).all()]));
  } finally {
    db.close();
  }
}

describe('engram import, with the files users have', () => {
  let dir: string;
  let remove: () => void;
  const run = () => ({ cwd: dir, env: LEXICAL });
  const write = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return name;
  };

  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('imports records with just the fields POST /v1/memories needs, and logs the import as one line', async () => {
    const file = write(
      'notes.jsonl',
      [
        '{"text":"first ok","kind":"fact"}',
        '{"text":"Alice prefers short answers","kind":"preference","scope":"user:alice","tags":["style"]}',
        '{"text":"Release freeze starts Friday","tier":"must_remember"}',
      ].join('\n'),
    );
    expect(await runOk(['import', file], run())).toBe('read 3 memories from notes.jsonl: imported 3 memories\n');
    const stored = await exportMemories(run());
    expect(stored.map(({ text, kind, tier, scope, source, tags }) => ({ text, kind, tier, scope, source, tags }))).toEqual(
      expect.arrayContaining([
        { text: 'first ok', kind: 'fact', tier: 'unknown', scope: 'global', source: 'user', tags: [] },
        {
          text: 'Alice prefers short answers',
          kind: 'preference',
          tier: 'unknown',
          scope: 'user:alice',
          source: 'user',
          tags: ['style'],
        },
        { text: 'Release freeze starts Friday', kind: 'note', tier: 'must', scope: 'global', source: 'user', tags: [] },
      ]),
    );
    const log = await runJson<{ action: string; summary: string }[]>(['log'], run());
    expect(log.map((line) => [line.action, line.summary])).toEqual([['import', 'imported 3 memories from notes.jsonl']]);
  });

  it('imports a JSON array of new and exported records', async () => {
    const exported = syntheticRecord(1, { text: 'an exported memory about zeppelins' });
    const file = write(
      'memories.json',
      `[\n  {"text": "Deploys happen on Tuesdays", "kind": "fact"},\n  ${JSON.stringify(exported)}\n]\n`,
    );
    expect(await runOk(['import', file], run())).toBe('read 2 memories from memories.json: imported 2 memories\n');
    const stored = await exportMemories(run());
    expect(stored).toContainEqual(exported);
    expect(stored.map((memory) => memory.text)).toContain('Deploys happen on Tuesdays');
  });

  it('imports the reference memory server’s memory.jsonl, and read_graph over MCP answers the file’s graph', async () => {
    const file = write('memory.jsonl', referenceMemoryFile(SAMPLE_GRAPH));
    expect(await runOk(['import', file], run())).toBe(
      'read 4 entities, 4 relations from memory.jsonl: added 4 entities and 4 relations to the knowledge graph\n',
    );
    expect(await runOk(['import', file], run())).toBe(
      'read 4 entities, 4 relations from memory.jsonl: added 0 of 4 entities and 0 of 4 relations to the knowledge graph (the rest were there already)\n',
    );

    const agent = await connectStdio(dir, ['--db', dbIn(dir, '.engram/engram.db')]);
    try {
      const read = await callTool(agent.client, 'read_graph', {});
      expect(read.isError).toBeFalsy();
      const graph = read.structuredContent as { entities: unknown[]; relations: unknown[]; nextOffset: number | null };
      expect(graph.entities).toEqual(SAMPLE_GRAPH.entities);
      expect(graph.relations).toHaveLength(SAMPLE_GRAPH.relations.length);
      expect(graph.relations).toEqual(expect.arrayContaining(SAMPLE_GRAPH.relations));
      expect(graph.nextOffset).toBeNull();
    } finally {
      await agent.client.close();
    }
    const log = await runJson<{ action: string; summary: string }[]>(['log'], run());
    expect(log.map((line) => line.summary)).toEqual([
      'imported 4 entities and 4 relations into the knowledge graph from memory.jsonl',
      'imported 0 of 4 entities and 0 of 4 relations into the knowledge graph from memory.jsonl',
    ]);
  });

  describe('a file with one bad line', () => {
    // A memory, an entity and their log lines, added by the CLI once; each case imports into a copy.
    let template: ReturnType<typeof makeTempDir>;
    beforeAll(async () => {
      template = makeTempDir();
      const seeding = { cwd: template.dir, env: LEXICAL };
      await runOk(['add', 'Already here', '--kind', 'fact'], seeding);
      await runOk(['graph', 'add', 'Acme', '--type', 'organization'], seeding);
    });
    afterAll(() => template.remove());

    /** A database holding a memory, an entity and a log line, and every row of it. */
    function seeded(): Record<string, unknown[]> {
      copyDatabase(dbIn(template.dir, '.engram/engram.db'), dbIn(dir, '.engram/engram.db'));
      return everyRow(dbIn(dir, '.engram/engram.db'));
    }

    it.each([
      [
        'JSON Lines with a wrong kind',
        'bad.jsonl',
        '{"text":"fine","kind":"fact"}\n{"type":"entity","name":"Alice","entityType":"person","observations":[]}\n{"text":"not fine","kind":"factoid"}\n',
        /^engram: line 3: kind must be one of: fact, .*; nothing was imported: fix this line and import again$/,
      ],
      [
        'a JSON array with an unknown field',
        'bad.json',
        '[\n  {"text": "fine"},\n  {"text": "not fine", "teir": "must"}\n]',
        /^engram: line 3 \(array index 1\): unknown field teir; nothing was imported: a new memory takes only text, kind, tier,/,
      ],
      [
        'a memory.jsonl relating an entity that is nowhere',
        'memory.jsonl',
        `${referenceMemoryFile(SAMPLE_GRAPH)}\n{"type":"relation","from":"Zoë Martins","to":"Bob","relationType":"manages"}`,
        /^engram: line 9: the relation Zoë Martins manages Bob names Bob, which is an entity neither of this file nor of the graph; nothing was imported/,
      ],
      [
        'JSON Lines with a line that is not JSON',
        'broken.jsonl',
        '{"text":"fine"}\n{"text": "half\n',
        /^engram: line 2: not valid JSON \(.+\); nothing was imported: fix it and import again$/,
      ],
    ])('refuses %s, naming the line and field, and changes nothing', async (_case, name, text, message) => {
      const before = seeded();
      expectOneLineError(await runCli(['import', write(name, text)], run()), message);
      expect(everyRow(dbIn(dir, '.engram/engram.db'))).toEqual(before);
    });
  });

  it('says so when a file holds no records', async () => {
    expect(await runOk(['import', write('empty.jsonl', '\n\n')], run())).toBe(
      'nothing to import: empty.jsonl holds no records\n',
    );
    expect((await exportMemories(run())) as ExportedMemory[]).toEqual([]);
  });
});

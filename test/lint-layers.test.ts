/**
 * The layer rule of `eslint-layers.js` against code that breaks it and code that keeps it,
 * so the linter cannot quietly stop enforcing DESIGN.md's layers.
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

import { layerConfigs } from '../eslint-layers.js';

const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } }, ...layerConfigs],
});

/** The layer-rule messages for `source` as if it were the file at `filePath`. */
async function layerErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the layer rule', () => {
  it.each([
    ['src/tools/search-memory.ts', "import type { Engram } from '../engram/engram.js';"],
    ['src/session/session.ts', "import { openEngram } from '../engram/engram.js';"],
    ['src/model/memory.ts', "import { InvalidInputError } from '../errors.js';"],
    ['src/model/memory.ts', "import type { EngramConfig } from '../config/schema.js';"],
    ['src/config/schema.ts', "import { hybridSearch } from '../retrieval/hybrid-search.js';"],
    ['src/store/store.ts', "import type { Embedder } from '../embedding/embedder.js';"],
    ['src/retrieval/hybrid-search.ts', "import { activate } from '../activation/activate.js';"],
    ['src/activation/activate.ts', "import { SqliteStore } from '../store/sqlite/sqlite-store.js';"],
    ['src/tools/providers/mcp.ts', "import { Session } from '../../session/session.js';"],
    ['src/context/format.ts', "import { Engram } from '../index.js';"],
    ['src/surfaces/http/routes/search.ts', "import { hybridSearch } from '../../../retrieval/hybrid-search.js';"],
    ['src/surfaces/cli/commands/add.ts', "import type { Store } from '../../../store/store.js';"],
    ['bench/locomo.ts', "import { openEngram } from '../src/index.js';"],
    ['src/graph/extract.ts', "import { hybridSearch } from '../retrieval/hybrid-search.js';"],
    ['src/surfaces/web/pages/memory-page.tsx', "import { hybridSearch } from '../../../retrieval/hybrid-search.js';"],
    ['src/session/session.ts', "import { createMemoryTools } from '../entries/tools.js';"],
    ['src/engram/engram.ts', "import type { Store } from '../entries/store.js';"],
    ['src/store/postgres/postgres-store.ts', "import { cachedStatement } from '../sqlite/statement-cache.js';"],
    ['src/store/sqlite/sqlite-store.ts', "import { postgresSession } from '../postgres/postgres-session.js';"],
    ['src/store/sql-core/session.ts', "import { sqliteSession } from '../sqlite/sqlite-session.js';"],
    ['src/store/sql-core/graph-entities.ts', "import type { Queryable } from '../postgres/connection.js';"],
  ])('refuses %s importing upward or around the public API: %s', async (filePath, source) => {
    const errors = await layerErrors(filePath, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/DESIGN\.md|facade/);
  });

  it.each([
    ['src/tools/tool.ts', "import type { ToolEngine } from './tool-engine.js';"],
    ['src/session/session.ts', "import { bindTool } from '../tools/tool.js';"],
    ['src/engram/engram.ts', "import { SqliteStore } from '../store/sqlite/sqlite-store.js';"],
    ['src/store/sql-core/rows.ts', "import type { Memory } from '../../model/memory.js';"],
    ['src/store/sql-core/rows.ts', "import type { MemoryFilter } from '../store.js';"],
    ['src/store/postgres/postgres-store.ts', "import { readSession } from '../sql-core/session-tables.js';"],
    ['src/store/sqlite/sqlite-store.ts', "import { SyncSession } from '../sql-core/session.js';"],
    ['src/config/schema.ts', "import { FUSIONS } from '../model/search-request.js';"],
    ['src/surfaces/http/routes/search.ts', "import { type Engram } from '../../../index.js';"],
    ['src/surfaces/cli/commands/serve.ts', "import { startServer } from '../../http/server.js';"],
    ['src/model/search-request.ts', "import { z } from 'zod';"],
    ['bench/locomo.ts', "import { openEngram } from 'engram';"],
    ['src/retrieval/graph-signal.ts', "import { extractGraph } from '../graph/extract.js';"],
    ['bench/scale.ts', "import { SqliteStore } from 'engram/internal';"],
    ['src/surfaces/web/pages/memory-page.tsx', "import { type Memory } from '../../../index.js';"],
    ['src/surfaces/http/routes/graph.ts', "import { createGraphTools } from '../../../entries/tools.js';"],
    ['bench/scale.ts', "import { openSqliteStore } from 'engram/sqlite';"],
    ['src/surfaces/web/web-auth.ts', "import type { TenantResolver } from '../http/auth.js';"],
  ])('allows %s: %s', async (filePath, source) => {
    expect(await layerErrors(filePath, source)).toEqual([]);
  });

  it('leaves tests free to import what they test', async () => {
    expect(await layerErrors('src/model/memory.test.ts', "import { openEngram } from '../engram/engram.js';")).toEqual([]);
  });
});

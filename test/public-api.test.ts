/** The package's exports are a promise to users: this list changes only on purpose. */
import { describe, expect, it } from 'vitest';

import * as engram from '../src/index.js';

describe('the public API', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(engram).sort()).toEqual(
      [
        'CONFIG_FILE_NAME',
        'ConfigError',
        'ConversationRecall',
        'EmbedderMismatchError',
        'Engram',
        'EngramError',
        'FUSIONS',
        'INTERNAL_KINDS',
        'InvalidInputError',
        'KINDS',
        'LIST_STATUSES',
        'LOCAL_EMBEDDER_ID',
        'MAX_SEARCH_LIMIT',
        'MAX_TEXT_CHARS',
        'NotFoundError',
        'OUTCOMES',
        'RECALL_PATHS',
        'SELECTION_MODES',
        'Session',
        'SEARCH_MODES',
        'SOURCES',
        'TIERS',
        'applyInsertions',
        'createLocalEmbedder',
        'createOpenAiEmbedder',
        'isEngramError',
        'loadConfig',
        'manualClock',
        'openEngram',
        'parseConfig',
        'redactUrl',
        'systemClock',
        // The memory tools and solution recall (issue 6).
        'MEMORY_TOOL_NAMES',
        'SCRATCHPAD_KEY',
        'SESSION_HANDOFF_KEY',
        'SOLUTION_SIMILARITIES',
        'SOLUTION_STATUSES',
        'TOOL_LIMITS',
        'callMcpTool',
        'createMemoryTools',
        'recallSolutions',
        'renderSolutionBlock',
        'renderSolutionBlocks',
        'runAnthropicToolUse',
        'runOpenAiToolCall',
        'storeSolution',
        'toAiSdkTools',
        'toAnthropicTools',
        'toMcpTools',
        'toOpenAiTools',
        // The knowledge graph as the MCP reference memory server's tools.
        'GRAPH_REQUEST_SCHEMAS',
        'GRAPH_TOOL_LIMITS',
        'GRAPH_TOOL_NAMES',
        'createGraphTools',
        // Each operation's request schema, shared by the library and the HTTP API.
        'ListRequestSchema',
        'MemoryInputSchema',
        'MemoryPatchSchema',
        'RecallSolutionsRequestSchema',
        'ReceiptQuerySchema',
        'SearchRequestSchema',
        'SessionOptionsSchema',
        'StoreSolutionRequestSchema',
        // Checking, repairing and copying a database file (issue 14).
        'DOCTOR_CHECKS',
        'backupDatabase',
        'doctorDatabase',
      ].sort(),
    );
  });

  it('is what the built package exports too', async () => {
    const entry = new URL('../dist/index.js', import.meta.url).href; // built by npm test before vitest runs
    const built = (await import(entry)) as Record<string, unknown>;
    expect(Object.keys(built).sort()).toEqual(Object.keys(engram).sort());
  });
});

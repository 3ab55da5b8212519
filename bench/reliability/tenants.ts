/**
 * Reliability, tenants: one `engram serve` with a token per tenant; seeded random operations
 * over every HTTP route and over MCP (streamable HTTP, one client per tenant token), each tenant
 * writing text that carries its own marker and then reading, searching, recalling, listing,
 * patching and deleting with the others' ids, session ids, entity names and markers. Any answer
 * to one tenant holding another's marker or id, any write accepted on another's memory, and
 * any memory or entity stored under a tenant that is not its own is a leak. Figure: 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SqliteStore } from 'engram/internal';

import { childEnv, LEXICAL_ENV, READY_MS } from './processes.js';
import { between, pickOne, type Random, seededRandom } from './seeded.js';
import { Supervisor } from './supervisor.js';

const TENANTS = ['acme', 'globex', 'initech'] as const;
/** The longest one operation (a few requests) may take before the section fails. */
const OPERATION_MS = 60_000;
type Tenant = (typeof TENANTS)[number];
const tokenOf = (tenant: Tenant) => `tenant-token-${tenant}-0123456789abcdef`;
/** One word per tenant that no other tenant's text holds. */
const markerOf = (tenant: Tenant) => `zz${tenant}zz`;

export interface TenantFigures {
  tenants: number;
  operations: number;
  http: number;
  mcp: number;
  /** Answers to one tenant holding another tenant's marker or memory id. */
  crossReads: number;
  /** Writes accepted on another tenant's memory, or rows stored under the wrong tenant. */
  crossWrites: number;
  /** Operations that failed for another reason (5xx, a refused valid call). */
  errors: number;
  problems: string[];
}

interface TenantState {
  tenant: Tenant;
  ids: string[];
  mcp: Client;
}

export async function runTenantIsolation({
  operations,
  seed = 20260616,
  log = () => undefined,
}: {
  operations: number;
  seed?: number;
  log?: (line: string) => void;
}): Promise<TenantFigures> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-reliability-tenants-'));
  const file = path.join(directory, 'engram.db');
  const random = seededRandom(seed);
  const figures: TenantFigures = {
    tenants: TENANTS.length,
    operations: 0,
    http: 0,
    mcp: 0,
    crossReads: 0,
    crossWrites: 0,
    errors: 0,
    problems: [],
  };
  const tokens = TENANTS.map((tenant) => `${tokenOf(tenant)}=${tenant}`).join(',');
  const states: TenantState[] = [];
  // The server's exit, or an operation that takes over OPERATION_MS, ends the section naming it.
  const supervisor = new Supervisor('tenants, starting', READY_MS + OPERATION_MS);
  try {
    const served = await supervisor.startServe(file, childEnv({ ...LEXICAL_ENV, ENGRAM_TOKENS: tokens }));
    const base = served.url;
    for (const tenant of TENANTS) {
      const mcp = new Client({ name: `tenant-${tenant}`, version: '1' });
      await supervisor.guard(
        mcp.connect(
          new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
            requestInit: { headers: { authorization: `Bearer ${tokenOf(tenant)}` } },
          }),
        ),
      );
      states.push({ tenant, ids: [], mcp });
    }
    const problem = (figure: 'crossReads' | 'crossWrites' | 'errors', what: string) => {
      figures[figure]++;
      if (figures.problems.length < 20) figures.problems.push(what.slice(0, 400));
    };
    for (let i = 0; i < operations; i++) {
      const self = pickOne(random, states);
      const other = pickOne(
        random,
        states.filter((state) => state !== self),
      );
      const operation = pickOne(random, OPERATIONS);
      supervisor.enter(`tenants, operation ${i + 1} (${operation.name})`, OPERATION_MS);
      const outcome = await supervisor.guard(operation({ random, base, self, other, n: i }));
      const { via, crossWrite } = outcome;
      let text = outcome.text;
      for (const echo of outcome.echoes ?? []) text = text.split(echo).join('');
      figures.operations++;
      figures[via]++;
      if (crossWrite) problem('crossWrites', `${self.tenant} ${operation.name}: ${crossWrite}`);
      if (text.startsWith('error ')) problem('errors', `${self.tenant} ${operation.name}: ${text.slice(0, 300)}`);
      const leaked = foreignTrace(text, self, states);
      if (leaked) problem('crossReads', `${self.tenant} ${operation.name} saw ${leaked}: ${text.slice(0, 200)}`);
      if (i % 500 === 499) log(`reliability tenants: ${i + 1} of ${operations} operations`);
    }
    for (const state of states) await state.mcp.close();
    states.length = 0;
    await supervisor.kill(served.running);
    supervisor.throwIfFailed();
    for (const what of await storedUnderWrongTenant(file)) problem('crossWrites', what);
    return figures;
  } finally {
    for (const state of states) await state.mcp.close().catch(() => undefined);
    await supervisor.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Another tenant's marker or memory id in `text`, or null. */
function foreignTrace(text: string, self: TenantState, states: readonly TenantState[]): string | null {
  for (const state of states) {
    if (state === self) continue;
    if (text.includes(markerOf(state.tenant))) return `${state.tenant}'s marker`;
    const id = state.ids.find((candidate) => text.includes(candidate));
    if (id) return `${state.tenant}'s memory ${id}`;
  }
  return null;
}

interface Step {
  random: Random;
  base: string;
  self: TenantState;
  other: TenantState;
  n: number;
}

interface Outcome {
  via: 'http' | 'mcp';
  /** Everything the tenant was answered, or `error …` when the call failed unexpectedly. */
  text: string;
  /** Set when a write on another tenant's data was accepted. */
  crossWrite?: string;
  /** What the request sent that an answer may echo (a query, an id): not a leak. */
  echoes?: string[];
}

async function api(step: Step, method: string, where: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${step.base}${where}`, {
    method,
    headers: { authorization: `Bearer ${tokenOf(step.self.tenant)}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const http = (text: string, status: number, accepted: readonly number[]): Outcome => ({
  via: 'http',
  text: accepted.includes(status) ? text : `error ${status} ${text}`,
});

async function mcpCall(step: Step, name: string, args: Record<string, unknown>): Promise<Outcome> {
  try {
    const result = await step.self.mcp.callTool({ name, arguments: args });
    return { via: 'mcp', text: JSON.stringify(result) };
  } catch (error) {
    return { via: 'mcp', text: `error ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** What one tenant's writes say: its marker, a topic every tenant shares, and a serial. */
const textFor = (step: Step) => `${markerOf(step.self.tenant)} note ${step.n} about billing and the deploy window`;
const sessionId = (step: Step) => `shared-session-${between(step.random, 1, 5)}`;
const someId = (state: TenantState, random: Random) =>
  state.ids.length > 0 ? pickOne(random, state.ids) : '01JD0000000000000000000000';

type Operation = (step: Step) => Promise<Outcome>;

const OPERATIONS: readonly Operation[] = [
  async function addMemory(step) {
    const { status, text } = await api(step, 'POST', '/v1/memories', { text: textFor(step), kind: 'fact', tier: 'must' });
    if (status === 201) step.self.ids.push((JSON.parse(text) as { memory: { id: string } }).memory.id);
    return http(text, status, [201]);
  },
  async function getOthersMemory(step) {
    const id = someId(step.other, step.random);
    const { status, text } = await api(step, 'GET', `/v1/memories/${id}`);
    return { ...http(text, status, [404]), echoes: [id] };
  },
  async function getOwnMemory(step) {
    const { status, text } = await api(step, 'GET', `/v1/memories/${someId(step.self, step.random)}`);
    return http(text, status, [200, 404]);
  },
  async function patchOthersMemory(step) {
    const id = someId(step.other, step.random);
    const { status, text } = await api(step, 'PATCH', `/v1/memories/${id}`, { text: textFor(step) });
    return {
      ...http(text, status, [404]),
      echoes: [id],
      ...(status < 300 ? { crossWrite: `a patch of ${id} answered ${status}` } : {}),
    };
  },
  async function deleteOthersMemory(step) {
    const id = someId(step.other, step.random);
    const { status, text } = await api(step, 'DELETE', `/v1/memories/${id}${step.random() < 0.5 ? '?hard=true' : ''}`);
    return {
      ...http(text, status, [404]),
      echoes: [id],
      ...(status < 300 ? { crossWrite: `a delete of ${id} answered ${status}` } : {}),
    };
  },
  async function listMemories(step) {
    const { status, text } = await api(step, 'GET', `/v1/memories?limit=200&all=true`);
    return http(text, status, [200]);
  },
  async function searchOthersMarker(step) {
    const query = `${markerOf(step.other.tenant)} billing deploy`;
    const { status, text } = await api(step, 'POST', '/v1/search', { query, limit: 50 });
    return { ...http(text, status, [200]), echoes: [query] };
  },
  async function sessionTurn(step) {
    const id = sessionId(step);
    await api(step, 'POST', `/v1/sessions/${id}/start`, {});
    const message = `${markerOf(step.other.tenant)} billing`;
    const { status, text } = await api(step, 'POST', `/v1/sessions/${id}/before-turn`, { message });
    const context = await api(step, 'GET', `/v1/sessions/${id}/context`);
    const after = await api(step, 'POST', `/v1/sessions/${id}/after-step`, { assistantText: 'billing deploy', toolCalls: [{}] });
    return {
      ...http(`${text}${context.text}${after.text}`, Math.max(status, context.status, after.status), [200]),
      echoes: [message],
    };
  },
  async function endSession(step) {
    const { status, text } = await api(step, 'POST', `/v1/sessions/${sessionId(step)}/end`, {});
    return http(text, status, [200, 404]);
  },
  async function solutions(step) {
    const goal = `${markerOf(step.self.tenant)} parse the billing CSV ${step.n}`;
    await api(step, 'POST', '/v1/solutions', { goal, approach: 'split lines', outcome: 'works', confidence: 80 });
    const wanted = `${markerOf(step.other.tenant)} parse the billing CSV`;
    const { status, text } = await api(step, 'POST', '/v1/solutions/recall', { goal: wanted });
    return { ...http(text, status, [200]), echoes: [wanted] };
  },
  async function graph(step) {
    const name = `${markerOf(step.self.tenant)} entity ${step.n % 20}`;
    await api(step, 'POST', '/v1/graph/entities', {
      entities: [{ name, entityType: 'thing', observations: [`${markerOf(step.self.tenant)} fact`] }],
    });
    const others = `${markerOf(step.other.tenant)} entity ${between(step.random, 0, 19)}`;
    const opened = await api(step, 'POST', '/v1/graph/open', { names: [others] });
    const searched = await api(step, 'POST', '/v1/graph/search', { query: markerOf(step.other.tenant) });
    const read = await api(step, 'GET', '/v1/graph?limit=500');
    const deleted = await api(step, 'POST', '/v1/graph/entities/delete', { entityNames: [others] });
    const answers = `${opened.text}${searched.text}${read.text}${deleted.text}`;
    const status = Math.max(opened.status, searched.status, read.status, deleted.status);
    return { ...http(answers, status, [200]), echoes: [others, `"query":"${markerOf(step.other.tenant)}"`] };
  },
  async function receiptsAndStats(step) {
    const receipts = await api(step, 'GET', `/v1/receipts?session=${sessionId(step)}&limit=50`);
    const stats = await api(step, 'GET', '/v1/stats');
    return http(`${receipts.text}${stats.text}`, Math.max(receipts.status, stats.status), [200]);
  },
  async function mcpWrite(step) {
    const outcome = await mcpCall(step, 'write_memory', { key: `note-${step.n % 7}`, content: textFor(step) });
    return outcome;
  },
  async function mcpSearch(step) {
    const query = `${markerOf(step.other.tenant)} billing`;
    return { ...(await mcpCall(step, 'search_memory', { query, limit: 50 })), echoes: [query] };
  },
  async function mcpGraph(step) {
    const name = `${markerOf(step.self.tenant)} mcp entity ${step.n % 10}`;
    await mcpCall(step, 'create_entities', {
      entities: [{ name, entityType: 'thing', observations: [`${markerOf(step.self.tenant)} seen`] }],
    });
    const read = await mcpCall(step, 'read_graph', {});
    const search = await mcpCall(step, 'search_nodes', { query: markerOf(step.other.tenant) });
    return { via: 'mcp', text: `${read.text}${search.text}`, echoes: [`\\"query\\":\\"${markerOf(step.other.tenant)}\\"`] };
  },
  async function mcpHandoffAndPrompt(step) {
    await mcpCall(step, 'write_session_handoff', { content: `${textFor(step)} handoff` });
    try {
      const prompt = await step.self.mcp.getPrompt({ name: 'session_start' });
      return { via: 'mcp', text: JSON.stringify(prompt) };
    } catch (error) {
      return { via: 'mcp', text: `error ${error instanceof Error ? error.message : String(error)}` };
    }
  },
];

/** Memories and entities whose text carries another tenant's marker, read from the file per tenant. */
async function storedUnderWrongTenant(file: string): Promise<string[]> {
  const store = new SqliteStore(file);
  const found: string[] = [];
  try {
    for (const tenant of TENANTS) {
      const foreign = TENANTS.filter((other) => other !== tenant).map(markerOf);
      const memories = await store.listMemories({ tenant, includeArchived: true, includeSuperseded: true }, { limit: 1_000_000 });
      for (const memory of memories)
        if (foreign.some((marker) => memory.text.includes(marker)))
          found.push(`${tenant} stores ${memory.id}: ${memory.text.slice(0, 80)}`);
      const graph = JSON.stringify(await store.readGraph(tenant, { limit: 100_000, includeInvalidated: true }));
      for (const marker of foreign) if (graph.includes(marker)) found.push(`${tenant}'s graph holds ${marker}`);
    }
    return found;
  } finally {
    await store.close();
  }
}

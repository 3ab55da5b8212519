/** `/v1/memories`: create, list, read, change and forget memories of the caller's tenant. */
import { type Engram, type Memory, NotFoundError } from '../../../index.js';
import { defineRoute } from '../api-route.js';
import { CreateMemoryBody, ForgetQuery, ListMemoriesQuery, UpdateMemoryBody } from '../request-schemas.js';
import { ForgetResponse, MemoryListResponse, MemoryResponse, RestoreResponse } from '../response-schemas.js';

/** The memory with this id in the engine's tenant; another tenant's id is as unknown as a made-up one. */
async function requireMemory(engram: Engram, id: string): Promise<Memory> {
  const memory = await engram.get(id);
  if (!memory) throw new NotFoundError(`no memory with id ${id.slice(0, 100)}: GET /v1/memories lists the ids`);
  return memory;
}

export const MEMORY_ROUTES = [
  defineRoute({
    method: 'post',
    path: '/v1/memories',
    tag: 'memories',
    summary: 'Remember something',
    description:
      'Stores a memory and indexes it. A memory with the key of a live memory in the same scope, or naming one in `supersedes`, replaces it; the old one is kept, marked superseded.',
    body: CreateMemoryBody,
    status: 201,
    response: MemoryResponse,
    handle: async ({ engram, body }) => ({ memory: await engram.remember(body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/memories',
    tag: 'memories',
    summary: 'List memories, newest first',
    query: ListMemoriesQuery,
    response: MemoryListResponse,
    handle: async ({ engram, query }) => ({
      memories: await engram.list({
        limit: query.limit,
        offset: query.offset,
        scopes: query.scope,
        kinds: query.kind,
        tiers: query.tier,
        all: query.all,
        status: query.status,
        internal: query.internal,
        pinned: query.pinned,
        hardRule: query.hard_rule,
        after: query.after,
        before: query.before,
        order: query.order,
      }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/memories/:id',
    tag: 'memories',
    summary: 'Read one memory (archived and superseded ones too)',
    response: MemoryResponse,
    handle: async ({ engram, params }) => ({ memory: await requireMemory(engram, params.id as string) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/memories/:id',
    tag: 'memories',
    summary: 'Change fields of a memory; new text is re-embedded',
    body: UpdateMemoryBody,
    response: MemoryResponse,
    handle: async ({ engram, params, body }) => {
      const id = (await requireMemory(engram, params.id as string)).id;
      return { memory: await engram.update(id, body) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/memories/:id',
    tag: 'memories',
    summary: 'Forget a memory: archive it, or with ?hard=true delete it for good',
    description: 'A memory archived already is left as it is: `outcome` is `already_archived`.',
    query: ForgetQuery,
    response: ForgetResponse,
    handle: async ({ engram, params, query }) => {
      const memory = await requireMemory(engram, params.id as string);
      const hard = query.hard ?? false;
      if (!hard && memory.archivedAt !== null) return { id: memory.id, outcome: 'already_archived' as const };
      return engram.forget(memory.id, { hard });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/memories/:id/restore',
    tag: 'memories',
    summary: 'Restore a forgotten (archived) memory in place: same id, record and vector',
    description:
      'Un-archives the memory without re-embedding it; its graph mentions are extracted again. Refused (400) when a live memory now holds its key in its scope. A memory that is not archived is left as it is: `outcome` is `not_archived`.',
    response: RestoreResponse,
    handle: async ({ engram, params }) => {
      const memory = await requireMemory(engram, params.id as string);
      if (memory.archivedAt === null) return { memory, outcome: 'not_archived' as const };
      return { memory: await engram.restore(memory.id), outcome: 'restored' as const };
    },
  }),
];

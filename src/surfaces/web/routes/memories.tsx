/**
 * `/memories`: the list and search, one memory's page, and the forms that change a memory. A
 * change answers with a redirect to the memory's page (post/redirect/get), so reloading never
 * submits twice.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';

import { parseInput } from '../../http/api-route.js';
import { memoryHref, withQuery } from '../links.js';
import { editMemory, forgetMemory, restoreMemory } from '../loaders/memory-changes.js';
import { loadMemoryDetail } from '../loaders/memory-detail.js';
import { loadMemoryList, MemoryListQuery } from '../loaders/memory-list.js';
import { MemoriesPage } from '../pages/memories-page.js';
import { MemoryPage } from '../pages/memory-page.js';
import { optionalOffset } from '../query-fields.js';
import type { WebEnv } from '../web-env.js';

/** A memory page's query: where its page of injections starts, and the notice after a change. */
const MemoryPageQuery = z.object({ injections: optionalOffset, done: z.string().optional() });

/** The notices a redirect may ask for, by name: only these fixed texts are ever shown. */
const DONE: Readonly<Record<string, string>> = {
  updated: 'Saved.',
  forgotten: 'Forgotten: the memory is archived. Restore brings it back.',
  restored: 'Restored: the memory is live again.',
};

/** Registers the memories list, a memory's page, and its edit, forget and restore forms. */
export function registerMemoryRoutes(app: Hono<WebEnv>): void {
  const list = async (c: Context<WebEnv>) => {
    const { engram, chrome } = c.get('web');
    const filters = parseInput(MemoryListQuery, c.req.query(), 'query');
    const view = await loadMemoryList(engram, filters);
    return c.html(<MemoriesPage view={view} chrome={chrome} notice={DONE[filters.done ?? ''] ?? null} />);
  };
  app.get('/', list);
  app.get('/memories', list);

  app.get('/memories/:id', async (c) => {
    const { engram, chrome } = c.get('web');
    const { injections } = parseInput(MemoryPageQuery, c.req.query(), 'query');
    const view = await loadMemoryDetail(engram, c.req.param('id'), injections ?? 0);
    return c.html(<MemoryPage view={view} chrome={chrome} notice={DONE[c.req.query('done') ?? ''] ?? null} />);
  });

  app.post('/memories/:id/edit', async (c) => {
    const { engram, form } = c.get('web');
    const memory = await editMemory(engram, c.req.param('id'), form as NonNullable<typeof form>);
    return c.redirect(withQuery(memoryHref(memory.id), { done: 'updated' }), 303);
  });
  app.post('/memories/:id/forget', async (c) => {
    const id = c.req.param('id');
    await forgetMemory(c.get('web').engram, id);
    return c.redirect(withQuery(memoryHref(id), { done: 'forgotten' }), 303);
  });
  app.post('/memories/:id/restore', async (c) => {
    const id = c.req.param('id');
    await restoreMemory(c.get('web').engram, id);
    return c.redirect(withQuery(memoryHref(id), { done: 'restored' }), 303);
  });
}

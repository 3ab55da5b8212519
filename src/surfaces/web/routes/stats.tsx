/** `/stats`: counts, the file, the embedder and recall activity. */
import type { Hono } from 'hono';
import { z } from 'zod';

import { parseInput } from '../../http/api-route.js';
import { loadStats } from '../loaders/stats.js';
import { StatsPage } from '../pages/stats-page.js';
import { optionalChoice } from '../query-fields.js';
import type { WebEnv } from '../web-env.js';

/** The stats page's query: `internal=true` counts Engram's internal records too. */
const StatsPageQuery = z.object({ internal: optionalChoice(['true'] as const) });

/** Registers the stats page; `showFile` when the database file is one tenant's. */
export function registerStatsRoutes(app: Hono<WebEnv>, options: { clock: { now(): Date }; showFile: boolean }): void {
  app.get('/stats', async (c) => {
    const { engram, chrome } = c.get('web');
    const { internal } = parseInput(StatsPageQuery, c.req.query(), 'query');
    const view = await loadStats(engram, { now: options.clock.now(), showFile: options.showFile, internal: internal === 'true' });
    return c.html(<StatsPage view={view} chrome={chrome} />);
  });
}

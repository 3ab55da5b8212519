/** `/stats`: counts, the file, the embedder and recall activity. */
import type { Hono } from 'hono';

import { loadStats } from '../loaders/stats.js';
import { StatsPage } from '../pages/stats-page.js';
import type { WebEnv } from '../web-env.js';

/** Registers the stats page; `showFile` when the database file is one tenant's. */
export function registerStatsRoutes(app: Hono<WebEnv>, options: { clock: { now(): Date }; showFile: boolean }): void {
  app.get('/stats', async (c) => {
    const { engram, chrome } = c.get('web');
    const view = await loadStats(engram, { now: options.clock.now(), showFile: options.showFile });
    return c.html(<StatsPage view={view} chrome={chrome} />);
  });
}

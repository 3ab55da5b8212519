/** `/graph` and `/graph/entity?name=`: the knowledge graph and one entity's neighbourhood. */
import type { Hono } from 'hono';
import { z } from 'zod';

import { parseInput } from '../../http/api-route.js';
import { loadEntity, loadGraph } from '../loaders/graph.js';
import { EntityPage } from '../pages/entity-page.js';
import { GraphPage } from '../pages/graph-page.js';
import { optionalOffset, optionalText } from '../query-fields.js';
import type { WebEnv } from '../web-env.js';

const GraphQuery = z.object({
  q: optionalText(1000),
  offset: optionalOffset,
});
const EntityQuery = z.object({ name: z.string({ error: 'name the entity: /graph/entity?name=…' }).trim().min(1).max(1000) });

/** Registers the graph pages. */
export function registerGraphRoutes(app: Hono<WebEnv>): void {
  app.get('/graph', async (c) => {
    const { engram, chrome } = c.get('web');
    const query = parseInput(GraphQuery, c.req.query(), 'query');
    return c.html(<GraphPage view={await loadGraph(engram, query)} chrome={chrome} />);
  });
  app.get('/graph/entity', async (c) => {
    const { engram, chrome } = c.get('web');
    const { name } = parseInput(EntityQuery, c.req.query(), 'query');
    return c.html(<EntityPage view={await loadEntity(engram, name)} chrome={chrome} />);
  });
}

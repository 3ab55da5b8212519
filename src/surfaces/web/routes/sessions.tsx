/** `/sessions`, `/sessions/:id` and `/receipts`: what recall decided, turn by turn. */
import type { Hono } from 'hono';
import { z } from 'zod';

import { parseInput } from '../../http/api-route.js';
import { loadReceipts, loadSession, loadSessions } from '../loaders/sessions.js';
import { ReceiptsPage } from '../pages/receipts-page.js';
import { SessionPage } from '../pages/session-page.js';
import { SessionsPage } from '../pages/sessions-page.js';
import { optionalCount, optionalText } from '../query-fields.js';
import type { WebEnv } from '../web-env.js';

const SessionsQuery = z.object({ after: optionalText(256) });

const ReceiptsQuery = z.object({
  session: optionalText(256),
  turn: optionalCount,
});

/** Registers the sessions, session and receipts pages. */
export function registerSessionRoutes(app: Hono<WebEnv>): void {
  app.get('/sessions', async (c) => {
    const { engram, chrome } = c.get('web');
    const { after } = parseInput(SessionsQuery, c.req.query(), 'query');
    return c.html(<SessionsPage view={await loadSessions(engram, after)} chrome={chrome} />);
  });
  app.get('/sessions/:id', async (c) => {
    const { engram, chrome } = c.get('web');
    return c.html(<SessionPage view={await loadSession(engram, c.req.param('id'))} chrome={chrome} />);
  });
  app.get('/receipts', async (c) => {
    const { engram, chrome } = c.get('web');
    const query = parseInput(ReceiptsQuery, c.req.query(), 'query');
    const receipts = await loadReceipts(engram, query);
    return c.html(<ReceiptsPage receipts={receipts} session={query.session} turn={query.turn} chrome={chrome} />);
  });
}

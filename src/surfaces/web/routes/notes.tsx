/** `/working-set`, `/notes`, `/activity` and `/solutions`: what the agent keeps for itself. */
import type { Hono } from 'hono';
import { z } from 'zod';

import { parseInput } from '../../http/api-route.js';
import { loadActivity, loadNotes, loadWorkingSets } from '../loaders/notes.js';
import { loadSolutions } from '../loaders/solutions.js';
import { ActivityPage } from '../pages/activity-page.js';
import { NotesPage } from '../pages/notes-page.js';
import { SolutionsPage } from '../pages/solutions-page.js';
import { WorkingSetPage } from '../pages/working-set-page.js';
import { optionalOffset, optionalText } from '../query-fields.js';
import type { WebEnv } from '../web-env.js';

const ActivityQuery = z.object({
  day: optionalText(10).refine(
    (day) => day === undefined || /^\d{4}-\d{2}-\d{2}$/.test(day),
    'day must be a date like 2026-01-31',
  ),
});
const SolutionsQuery = z.object({
  goal: optionalText(2000),
  offset: optionalOffset,
});

/** Registers the working set, notes, activity and solutions pages. */
export function registerNoteRoutes(app: Hono<WebEnv>): void {
  app.get('/working-set', async (c) => {
    const { engram, chrome } = c.get('web');
    return c.html(<WorkingSetPage sets={await loadWorkingSets(engram)} chrome={chrome} />);
  });
  app.get('/notes', async (c) => {
    const { engram, chrome } = c.get('web');
    return c.html(<NotesPage view={await loadNotes(engram)} chrome={chrome} />);
  });
  app.get('/activity', async (c) => {
    const { engram, chrome } = c.get('web');
    const { day } = parseInput(ActivityQuery, c.req.query(), 'query');
    return c.html(<ActivityPage entries={await loadActivity(engram, day)} day={day} chrome={chrome} />);
  });
  app.get('/solutions', async (c) => {
    const { engram, chrome } = c.get('web');
    const query = parseInput(SolutionsQuery, c.req.query(), 'query');
    return c.html(<SolutionsPage view={await loadSolutions(engram, query)} chrome={chrome} />);
  });
}

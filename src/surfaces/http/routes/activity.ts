/** `GET /v1/activity`: the daily activity log — one line per write, from every surface. */
import { defineRoute } from '../api-route.js';
import { ActivityQuery } from '../request-schemas.js';
import { ActivityResponse } from '../response-schemas.js';

export const ACTIVITY_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/activity',
    tag: 'activity',
    summary: 'The activity log, oldest first: one line per write (remember, update, forget, restore, import, tools, graph)',
    query: ActivityQuery,
    response: ActivityResponse,
    handle: async ({ engram, query }) => ({ activity: await engram.activity({ day: query.day, limit: query.limit }) }),
  }),
];

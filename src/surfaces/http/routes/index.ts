/** Every route of the JSON API under `/v1`, in the order the OpenAPI document lists them. */
import type { AnyApiRoute } from '../api-route.js';
import { ACTIVITY_ROUTES } from './activity.js';
import { GRAPH_ROUTES } from './graph.js';
import { MEMORY_ROUTES } from './memories.js';
import { RECEIPT_ROUTES } from './receipts.js';
import { SEARCH_ROUTES } from './search.js';
import { SESSION_ROUTES } from './sessions.js';
import { SOLUTION_ROUTES } from './solutions.js';
import { STATS_ROUTES } from './stats.js';

export const API_ROUTES: readonly AnyApiRoute[] = [
  ...MEMORY_ROUTES,
  ...SEARCH_ROUTES,
  ...SESSION_ROUTES,
  ...SOLUTION_ROUTES,
  ...GRAPH_ROUTES,
  ...RECEIPT_ROUTES,
  ...ACTIVITY_ROUTES,
  ...STATS_ROUTES,
];

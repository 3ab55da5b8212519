/** `GET /v1/stats`: what the caller's tenant holds. */
import { defineRoute } from '../api-route.js';
import { StatsQuery } from '../request-schemas.js';
import { StatsResponse } from '../response-schemas.js';

export const STATS_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/stats',
    tag: 'stats',
    summary: 'Counts by kind, tier and scope, and the vector index, for the caller’s tenant',
    description:
      "Engram's internal records (working sets, handoff notes, scratchpads) count only with `?internal=true`; `internal.live` says how many there are.",
    query: StatsQuery,
    response: StatsResponse,
    handle: async ({ engram, query }) => {
      // The file, its size and the shared embedding cache describe every tenant: not the caller's to see.
      const {
        path: _path,
        sizeBytes: _size,
        cachedEmbeddings: _cache,
        ...stats
      } = await engram.stats({ internal: query.internal });
      return stats;
    },
  }),
];

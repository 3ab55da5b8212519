/** `POST /v1/search`: find memories by words and meaning. */
import { defineRoute } from '../api-route.js';
import { SearchBody } from '../request-schemas.js';
import { SearchResponse } from '../response-schemas.js';

export const SEARCH_ROUTES = [
  defineRoute({
    method: 'post',
    path: '/v1/search',
    tag: 'search',
    summary: 'Search memories by words and meaning',
    description:
      'Hybrid search (BM25 and vectors) by default. Each hit carries its calibrated relevance in [0, 1] and the signals and factors behind its score.',
    body: SearchBody,
    response: SearchResponse,
    handle: async ({ engram, body }) => ({ hits: await engram.search(body) }),
  }),
];

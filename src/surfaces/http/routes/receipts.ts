/** `GET /v1/receipts`: every recall decision and why, newest first. */
import { defineRoute } from '../api-route.js';
import { ReceiptsQuery } from '../request-schemas.js';
import { ReceiptsResponse } from '../response-schemas.js';

export const RECEIPT_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/receipts',
    tag: 'receipts',
    summary: 'Activation receipts, newest first: what recall chose, what it left out, and why',
    query: ReceiptsQuery,
    response: ReceiptsResponse,
    handle: async ({ engram, query }) => ({
      receipts: await engram.receipts({ sessionId: query.session, turn: query.turn, limit: query.limit }),
    }),
  }),
];

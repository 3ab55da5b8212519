/**
 * Requests whose params do not fit the method (`tools/call` with `arguments: 42`, `prompts/get`
 * with `params: "x"`) are the client's mistake. The SDK checks them with zod inside its own
 * handler wrapper and answers the failure as -32603 Internal error, with the whole issue list
 * as the message. This wraps every request handler the server has so such a failure is
 * answered as -32602 Invalid params, with one line saying which field was wrong. So is a
 * `resources/read` of a URI that is not a URL at all, which the SDK lets `new URL` throw on.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/** Call once every handler is registered (a handler set later is not wrapped). */
export function answerBadParamsAsInvalidParams(server: Server): void {
  // The handlers are private to the SDK's Protocol class; the map is the one place to catch
  // its schema check before it turns into an internal error.
  const handlers = (server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        throw asInvalidParams(method, error);
      }
    });
  }
}

/** A zod failure as -32602 with its first issue, an unparseable URI as -32602; anything else unchanged. */
function asInvalidParams(method: string, error: unknown): unknown {
  if ((error as { code?: unknown } | null)?.code === 'ERR_INVALID_URL') {
    return new McpError(ErrorCode.InvalidParams, `${method}: params.uri is not a URI: use one resources/list names`);
  }
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (!(error instanceof Error) || error instanceof McpError || !Array.isArray(issues)) return error;
  const first = issues[0] as { path?: unknown[]; message?: string } | undefined;
  const where = first?.path && first.path.length > 0 ? first.path.map(String).join('.') : 'params';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new McpError(ErrorCode.InvalidParams, `${method}: ${where}: ${first?.message ?? 'invalid'}${more}`);
}

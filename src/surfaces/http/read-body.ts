/**
 * Reading a request body within a size limit, before anything parses it: a declared length
 * over the limit is refused at once, and a chunked body is counted while it streams in.
 */
import { ApiError } from './api-error.js';

/** The default limit on a request body. @default 1 MiB */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The body as text; an ApiError 413 when it is longer than `maxBytes`. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The body parsed as JSON; an empty body is `undefined`. Invalid JSON is an ApiError 400
 * naming what the parser saw.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ApiError(400, 'invalid_json', `the request body is not valid JSON (${reason}): send a JSON object`, {
      cause: error,
    });
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(
    413,
    'payload_too_large',
    `the request body is larger than ${formatBytes(maxBytes)}: send less at once (split the batch or shorten the text)`,
  );
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

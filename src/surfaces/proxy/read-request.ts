/** The request body, up to a limit (a request past it is refused whole, never cut). */
import type { IncomingMessage } from 'node:http';

/** @default 32 MiB: long conversations with images are large. */
export const DEFAULT_MAX_REQUEST_BYTES = 32 * 1024 * 1024;

export async function readRequestBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Reading a hook event from standard input. The event is one JSON object; reading stops as
 * soon as the text read so far parses, rather than waiting for end of input, so a hook whose
 * caller keeps stdin open still answers at once. Otherwise it reads to the end, and the
 * parser reports what is wrong.
 */
import type { Readable } from 'node:stream';

/** Reads `input` until it holds one complete JSON value or ends; returns the text read. */
export function readEventText(input: Readable = process.stdin): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const finish = (): void => {
      input.off('data', onData);
      input.off('end', finish);
      input.off('error', onError);
      input.pause();
      // Let the process exit even if the writer never closes its end.
      if ('unref' in input && typeof input.unref === 'function') (input.unref as () => void)();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer | string): void => {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      // Only try to parse when the chunk could end an object: cheap, and right for JSON events.
      if (chunk.toString().trimEnd().endsWith('}')) {
        try {
          JSON.parse(Buffer.concat(chunks).toString('utf8'));
          finish();
        } catch {
          // Not complete yet: keep reading.
        }
      }
    };
    const onError = (error: Error): void => {
      input.off('data', onData);
      input.off('end', finish);
      reject(error);
    };
    input.on('data', onData);
    input.once('end', finish);
    input.once('error', onError);
  });
}

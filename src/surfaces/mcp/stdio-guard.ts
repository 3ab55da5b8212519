/**
 * A filter in front of the stdio transport for lines the SDK would drop in silence. The SDK
 * reads each line as a JSON-RPC message; one that parses as JSON but is not valid JSON-RPC
 * (`params: null`, `jsonrpc: "1.0"`, a batch) is reported to `onerror` and never answered, so
 * a client waiting on its id waits forever. Here such a request, when it carries an id, is
 * answered at once with -32600 Invalid Request; a line that is not JSON at all is logged (a
 * JSON-RPC answer needs an id to reach its caller). Everything else passes through unchanged.
 */
import { Transform, type TransformCallback } from 'node:stream';

import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** Lines longer than this are passed on whole: the SDK's own size limit decides. */
const MAX_CHECKED_CHARS = 8 * 1024 * 1024;

export class StdioGuard extends Transform {
  private pending = '';
  private readonly answer: (line: string) => void;
  private readonly log: (line: string) => void;

  constructor(answer: (line: string) => void, log: (line: string) => void) {
    super({ decodeStrings: true });
    this.answer = answer;
    this.log = log;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += chunk.toString('utf8');
    let end = this.pending.indexOf('\n');
    while (end >= 0) {
      const line = this.pending.slice(0, end + 1);
      this.pending = this.pending.slice(end + 1);
      if (this.accept(line)) this.push(line);
      end = this.pending.indexOf('\n');
    }
    if (this.pending.length > MAX_CHECKED_CHARS) {
      this.push(this.pending);
      this.pending = '';
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pending !== '') this.push(this.pending);
    done();
  }

  /** Whether `line` goes on to the SDK; a refused request is answered here. */
  private accept(line: string): boolean {
    const text = line.replace(/\r?\n$/, '');
    if (text.trim() === '') return false;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      this.log(`ignored a line that is not JSON (${error instanceof Error ? error.message : String(error)})`);
      return false;
    }
    if (JSONRPCMessageSchema.safeParse(message).success) return true;
    const id = (message as { id?: unknown } | null)?.id;
    if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) {
      this.answer(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          error: {
            code: ErrorCode.InvalidRequest,
            message: 'invalid JSON-RPC request: send {"jsonrpc":"2.0","id":…,"method":…,"params":{…}} with params an object',
          },
        }),
      );
    } else this.log('ignored a message that is not JSON-RPC 2.0 and has no id to answer');
    return false;
  }
}

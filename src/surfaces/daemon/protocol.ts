/**
 * What a caller and the resident process say to each other: one JSON request on one line, one
 * JSON reply on one line, then the connection closes. A reply is what the command would have
 * printed and its exit code, so a caller prints it as it is and needs none of the library.
 */

/** A request to the resident process. */
export type DaemonRequest =
  /** `engram hook claude-code`: the event's text as read from stdin. */
  | { op: 'hook-claude-code'; input: string; scope?: string | undefined }
  /** `engram recall`: active recall for one message. */
  | { op: 'recall'; message: string; session: string; scope?: string | undefined; json: boolean }
  | { op: 'status' }
  | { op: 'stop' };

/** What the process is and has done, for `engram daemon status`. */
export interface DaemonStatus {
  pid: number;
  /** The database it holds open. */
  db: string;
  config: string | null;
  startedAt: string;
  /** Requests answered so far (this one excluded). */
  requests: number;
  idleSeconds: number;
}

/** The answer: what to print and how to exit. */
export interface DaemonReply {
  stdout: string;
  stderr: string;
  exitCode: number;
  status?: DaemonStatus;
}

/** One message as a line. */
export function encodeLine(message: DaemonRequest | DaemonReply): string {
  return `${JSON.stringify(message)}\n`;
}

/** Collects socket data until the first newline; resolves with that line's JSON. */
export function readLine(socket: NodeJS.ReadableStream): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer | string): void => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end < 0) return;
      cleanup();
      try {
        resolve(JSON.parse(text.slice(0, end)));
      } catch (error) {
        reject(error);
      }
    };
    const onEnd = (): void => {
      cleanup();
      reject(new Error('the connection closed before a whole message arrived'));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const cleanup = (): void => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onError);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onError);
  });
}

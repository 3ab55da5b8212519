/**
 * What a caller and the resident process say to each other: one JSON request on one line, one
 * JSON reply on one line, then the connection closes. A command's request carries the caller's
 * settings; its reply is what the command would have printed and its exit code, so a caller
 * prints it as it is and needs none of the library.
 */
import type { CallerSettings } from './caller-settings.js';

/** A request to the resident process. */
export type DaemonRequest =
  /** `engram hook claude-code`: the event's text as read from stdin. */
  | { op: 'hook-claude-code'; input: string; scope?: string | undefined; settings: CallerSettings }
  /** `engram recall`: active recall for one message. */
  | { op: 'recall'; message: string; session: string; scope?: string | undefined; json: boolean; settings: CallerSettings }
  | { op: 'status' }
  | { op: 'stop' };

/** A request that runs a command, with the caller's settings. */
export type CommandRequest = Extract<DaemonRequest, { settings: CallerSettings }>;

/** What the process is and has done, for `engram daemon status`. */
export interface DaemonStatus {
  pid: number;
  /** The database it holds open (its real path). */
  db: string;
  /** The configuration file of the settings it holds the database open with (the latest command's), or null. */
  config: string | null;
  startedAt: string;
  /** Requests answered so far (this one excluded). */
  requests: number;
  /** `[daemon] idle_seconds` of the latest command (of the process's start before one). */
  idleSeconds: number;
  /** When it exits by itself unless a command comes first. */
  idleExitAt: string;
  /** Its resident set size in bytes (the model's worker threads included). */
  rssBytes: number;
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

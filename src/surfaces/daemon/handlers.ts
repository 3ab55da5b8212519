/**
 * What the resident process does for each request: the same work, and the same output, as the
 * command would have produced in its own process — the hook's JSON, recall's block, a mistake in
 * its configuration — with the engine, the embedding model and the SQLite connection already
 * open, and the command's own settings.
 */
import type { Engram } from '../../index.js';
import { describeError } from '../cli/describe-error.js';
import { recallOutput } from '../cli/recall-output.js';
import { answerClaudeCodeHook } from '../hooks/claude-code-hook.js';
import type { CommandRequest, DaemonReply } from './protocol.js';
import type { ResidentEngine } from './resident-engine.js';

/** A command's reply, and the command's `[daemon] idle_seconds` when its configuration loaded. */
export interface CommandOutcome {
  reply: DaemonReply;
  idleSeconds: number | null;
}

/** Runs one command request; errors become the CLI's one-line message and exit code 1. */
export async function runRequest(engine: ResidentEngine, request: CommandRequest): Promise<CommandOutcome> {
  const warnings: string[] = [];
  let idleSeconds: number | null = null;
  // As in the command's own process, the configuration is loaded (and a mistake in it reported)
  // only once the engine is needed: a malformed hook event is reported first.
  const withEngine = async <T>(action: (engram: Engram) => Promise<T>): Promise<T> => {
    const { engram, config } = await engine.engineFor(request.settings);
    idleSeconds = config.daemon.idle_seconds;
    return action(engram);
  };
  try {
    const stdout = await run(withEngine, request, (line) => warnings.push(`engram: ${line}\n`));
    return { reply: { stdout, stderr: warnings.join(''), exitCode: 0 }, idleSeconds };
  } catch (error) {
    return { reply: { stdout: '', stderr: `${warnings.join('')}engram: ${describeError(error)}\n`, exitCode: 1 }, idleSeconds };
  }
}

async function run(
  withEngine: <T>(action: (engram: Engram) => Promise<T>) => Promise<T>,
  request: CommandRequest,
  warn: (line: string) => void,
): Promise<string> {
  switch (request.op) {
    case 'hook-claude-code':
      return answerClaudeCodeHook(request.input, withEngine, { scope: request.scope, warn });
    case 'recall': {
      const result = await withEngine((engram) =>
        engram.session({ id: request.session, scope: request.scope }).beforeTurn(request.message),
      );
      return recallOutput(result, { session: request.session, json: request.json });
    }
  }
}

/**
 * What the resident process does for each request: the same work, and the same output, as the
 * command would have produced in its own process — the hook's JSON, recall's block — with the
 * engine, the embedding model and the SQLite connection already open.
 */
import type { Engram } from '../../index.js';
import { describeError } from '../cli/describe-error.js';
import { recallOutput } from '../cli/recall-output.js';
import { answerClaudeCodeHook } from '../hooks/claude-code-hook.js';
import type { DaemonReply, DaemonRequest } from './protocol.js';

/** Runs one command request against the open engine; errors become the CLI's one-line message and exit code 1. */
export async function runRequest(
  engram: Engram,
  request: Extract<DaemonRequest, { op: 'hook-claude-code' | 'recall' }>,
): Promise<DaemonReply> {
  const warnings: string[] = [];
  try {
    const stdout = await run(engram, request, (line) => warnings.push(`engram: ${line}\n`));
    return { stdout, stderr: warnings.join(''), exitCode: 0 };
  } catch (error) {
    return { stdout: '', stderr: `${warnings.join('')}engram: ${describeError(error)}\n`, exitCode: 1 };
  }
}

async function run(
  engram: Engram,
  request: Extract<DaemonRequest, { op: 'hook-claude-code' | 'recall' }>,
  warn: (line: string) => void,
): Promise<string> {
  switch (request.op) {
    case 'hook-claude-code':
      return answerClaudeCodeHook(request.input, (action) => action(engram), { scope: request.scope, warn });
    case 'recall': {
      const result = await engram.session({ id: request.session, scope: request.scope }).beforeTurn(request.message);
      return recallOutput(result, { session: request.session, json: request.json });
    }
  }
}

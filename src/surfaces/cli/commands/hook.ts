/**
 * `engram hook claude-code`: answer one Claude Code hook event (JSON on stdin) in the hook
 * output format (JSON on stdout). Every failure — malformed input included — is one
 * `engram: …` line on stderr and exit code 1, which Claude Code treats as a non-blocking error
 * (only exit code 2 blocks), so a memory problem never stops the agent. The input is checked
 * before the database is opened, so a malformed event writes nothing.
 */
import type { Command } from 'commander';

import { InvalidInputError } from '../../../index.js';
import { answerClaudeCodeHook } from '../../hooks/claude-code-hook.js';
import { readEventText } from '../../hooks/read-event-text.js';
import { withEngram } from '../context.js';
import { takePrefetchedInput } from '../prefetched-input.js';

export function registerHook(program: Command): void {
  const hook = program
    .command('hook')
    .description("answer a coding agent's hook event: session-start context, active recall, reflection nudges")
    .addHelpText('after', '\nExamples:\n  engram hook claude-code --help');
  hook
    .command('claude-code')
    .description('read a Claude Code hook event (JSON) on stdin and print the hook output JSON')
    .option('-s, --scope <scope>', 'the scope of the session and of what recall sees first (default global)')
    .addHelpText(
      'after',
      `
Handles SessionStart, UserPromptSubmit, PostToolUse, Stop and SessionEnd; see "Hooks for
coding agents" in docs/serving.md for the settings.json block.

Examples:
  echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"which database for billing?"}' \\
    | engram hook claude-code --db .engram/engram.db`,
    )
    .action(async (options: { scope?: string }, command: Command) => {
      // The fast path may have read the event already, before finding no resident process.
      let text = takePrefetchedInput();
      if (text === undefined) {
        if (process.stdin.isTTY) {
          throw new InvalidInputError('hook claude-code reads a hook event as JSON on stdin: Claude Code runs it (see --help)');
        }
        text = await readEventText();
      }
      const stdout = await answerClaudeCodeHook(text, (action) => withEngram(command, { mustExist: false }, action), {
        scope: options.scope,
        warn: (line) => process.stderr.write(`engram: ${line}\n`),
      });
      process.stdout.write(stdout);
    });
}

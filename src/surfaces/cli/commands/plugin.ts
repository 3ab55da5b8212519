/**
 * `engram plugin claude-code`: writes Engram's Claude Code plugin (hooks and MCP server) for this
 * installation, and prints the one command that installs it. The plugin runs this installation's
 * CLI with the Node running now, so it needs no `engram` on the PATH.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Command } from 'commander';

import { EngramError } from '../../../index.js';
import { shellWord } from '../../claude-code-plugin/launcher-script.js';
import { MARKETPLACE_NAME, PLUGIN_HOOK_EVENTS, PLUGIN_NAME } from '../../claude-code-plugin/plugin-files.js';
import { writeClaudeCodePlugin } from '../../claude-code-plugin/write-plugin.js';
import { packageManifest, packageRoot } from '../../package-root.js';
import { ENGRAM_VERSION } from '../../version.js';
import { globalOptions, printJson } from '../context.js';

/** Where the plugin goes without `--out`. */
const DEFAULT_OUT = path.join('~', '.engram', 'claude-code-plugin');

export function registerPlugin(program: Command): void {
  const plugin = program
    .command('plugin')
    .description("write Engram's plugin for a coding agent")
    .addHelpText('after', '\nExamples:\n  engram plugin claude-code --help');
  plugin
    .command('claude-code')
    .description("write Engram's Claude Code plugin (hooks and MCP server) and print how to install it")
    .option('--out <dir>', `the folder to write it to (default ${DEFAULT_OUT})`)
    .addHelpText(
      'after',
      `
The plugin runs this installation of Engram with this Node. Without --db each project keeps its
memories in its own .engram/engram.db; with --db every project shares that file. Run the
command again after moving Engram or Node. See "Claude Code plugin" in docs/integrations.md.

Examples:
  engram plugin claude-code && claude plugin install engram --marketplace ~/.engram/claude-code-plugin
  engram plugin claude-code --out ./engram-plugin --db ~/.engram/memories.db`,
    )
    .action((options: { out?: string }, command: Command) => {
      const { db, json } = globalOptions(command);
      const cli = installedCli();
      const database = db === undefined ? undefined : path.resolve(db);
      const out = options.out ?? path.join(os.homedir(), '.engram', 'claude-code-plugin');
      const written = writeClaudeCodePlugin(out, { node: process.execPath, cli, database, version: ENGRAM_VERSION });
      const install = `claude plugin install ${PLUGIN_NAME} --marketplace ${shellWord(written.marketplace)}`;
      if (json) {
        printJson({ ...written, node: process.execPath, cli, database: database ?? null, install });
        return;
      }
      process.stdout.write(
        [
          `wrote Engram's Claude Code plugin to ${written.marketplace} (the plugin ${PLUGIN_NAME}@${MARKETPLACE_NAME})`,
          `  hooks       ${PLUGIN_HOOK_EVENTS.join(', ')}: engram hook claude-code`,
          '  MCP server  engram mcp',
          `  runs        ${process.execPath} ${cli}`,
          `  memories    ${database ?? "each project's .engram/engram.db"}`,
          'install it (then restart Claude Code):',
          `  ${install}`,
          '',
        ].join('\n'),
      );
    });
}

/** The package's `engram` binary (package.json's `bin`), which the plugin will run. */
function installedCli(): string {
  const cli = path.join(packageRoot(), packageManifest().bin.engram);
  if (!existsSync(cli)) {
    throw new EngramError(
      'not_found',
      `${cli} does not exist: run \`npm run build\` in Engram's folder, then this command again`,
    );
  }
  return cli;
}

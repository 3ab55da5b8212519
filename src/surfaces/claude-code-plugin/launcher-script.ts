/**
 * The launcher script of Engram's Claude Code plugin, which every hook and the MCP server run:
 * one Engram installation with the Node it was written with, from the project's folder.
 */

/** The Engram installation the plugin runs, as absolute paths. */
export interface PluginInstallation {
  /** The Node.js executable, e.g. `process.execPath`: the one Engram's native SQLite driver was built for. */
  node: string;
  /** Engram's CLI entry point, `…/dist/surfaces/cli/main.js`. */
  cli: string;
  /** One database for every project; without it each project uses its own `.engram/engram.db`. */
  database?: string;
  /** Engram's version, the plugin's version. */
  version: string;
}

/**
 * A POSIX shell script that runs the installation with the Node it was written with, from the
 * project's root; a missing installation is one line on stderr and exit code 1, which Claude
 * Code treats as a non-blocking error.
 */
export function launcherScript({ node, cli, database, version }: PluginInstallation): string {
  const databaseArgs = database === undefined ? '' : ` --db ${shellQuote(database)}`;
  return `#!/bin/sh
# Engram's Claude Code plugin runs every hook and its MCP server through this script. Written by
# \`engram plugin claude-code\` (Engram ${version}) for the installation below: after moving
# Engram or Node, run that command again; Claude Code reads the plugin again at its next session.
node=${shellQuote(node)}
cli=${shellQuote(cli)}
if [ ! -x "$node" ] || [ ! -f "$cli" ]; then
  echo "engram: the Claude Code plugin runs Engram from $cli with $node, which is not there any more: run \\\`engram plugin claude-code\\\` from the Engram installation you use now, then start a new Claude Code session" >&2
  exit 1
fi
# Hooks run in the agent's current folder, which follows its cd: start from the project's root,
# so its engram.toml and .engram/engram.db are the same whatever folder the agent is in.
if [ -n "$CLAUDE_PROJECT_DIR" ]; then
  cd "$CLAUDE_PROJECT_DIR" || exit 1
fi
exec "$node" "$cli"${databaseArgs} "$@"
`;
}

/** `text` as one word for sh: single-quoted, each `'` closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `text` as one word for sh, quoted only when it needs it (for commands a person reads). */
export function shellWord(text: string): string {
  return /^[\w./~+-]+$/.test(text) ? text : shellQuote(text);
}

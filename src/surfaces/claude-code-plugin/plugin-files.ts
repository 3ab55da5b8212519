/**
 * The files of Engram's Claude Code plugin, in the layout Claude Code documents: a marketplace
 * folder (`.claude-plugin/marketplace.json`) holding one plugin, `engram/`, whose hooks
 * (`hooks/hooks.json`) and MCP server (`.mcp.json`) run one Engram installation through a
 * launcher script. Pure: the caller writes them. Why it is built this way:
 * docs/decisions/claude-code-plugin.md.
 */
import { CLAUDE_CODE_EVENTS } from '../hooks/claude-code-events.js';
import { launcherScript, type PluginInstallation, shellWord } from './launcher-script.js';

export type { PluginInstallation } from './launcher-script.js';

/** One file of the plugin folder, its path relative to the marketplace folder. */
export interface PluginFile {
  path: string;
  text: string;
  /** Written with the execute bits (the launcher script). */
  executable: boolean;
}

/** The name of the plugin and of the marketplace holding it: `engram@engram`. */
export const PLUGIN_NAME = 'engram';
export const MARKETPLACE_NAME = 'engram';

/** Where the launcher lives in the plugin; every hook and the MCP server run it. */
export const LAUNCHER_PATH = 'scripts/engram';

/** The hook events Engram answers (docs/serving.md "Hooks for coding agents"), in the order they come. */
export const PLUGIN_HOOK_EVENTS = CLAUDE_CODE_EVENTS;

const LAUNCHER = `"\${CLAUDE_PLUGIN_ROOT}/${LAUNCHER_PATH}"`;
const DESCRIPTION =
  'Long-term memory for Claude Code: Engram recalls what matters for each prompt, nudges reflection during long tool runs, and offers its memory tools over MCP.';

/**
 * Every file of the plugin folder, the marketplace manifest first.
 * @param marketplace the absolute path of the folder they are written to, for the README's install line
 */
export function claudeCodePluginFiles(installation: PluginInstallation, marketplace: string): PluginFile[] {
  const plugin = (file: string) => `${PLUGIN_NAME}/${file}`;
  return [
    jsonFile('.claude-plugin/marketplace.json', marketplaceManifest(installation)),
    jsonFile(plugin('.claude-plugin/plugin.json'), pluginManifest(installation)),
    jsonFile(plugin('hooks/hooks.json'), hooksConfig()),
    jsonFile(plugin('.mcp.json'), mcpConfig()),
    { path: plugin(LAUNCHER_PATH), text: launcherScript(installation), executable: true },
    { path: plugin('README.md'), text: readme(installation, shellWord(marketplace)), executable: false },
  ];
}

function marketplaceManifest({ version }: PluginInstallation) {
  return {
    name: MARKETPLACE_NAME,
    description: "Engram's memory for Claude Code, from this machine's Engram installation",
    owner: { name: 'Engram' },
    plugins: [{ name: PLUGIN_NAME, source: `./${PLUGIN_NAME}`, description: DESCRIPTION, version }],
  };
}

function pluginManifest({ version }: PluginInstallation) {
  return {
    name: PLUGIN_NAME,
    version,
    description: DESCRIPTION,
    author: { name: 'Engram' },
    license: 'Apache-2.0',
    keywords: ['memory', 'recall', 'mcp'],
  };
}

/** Claude Code's hooks configuration: the five events, each `engram hook claude-code`. */
function hooksConfig() {
  const command = { type: 'command', command: `${LAUNCHER} hook claude-code` };
  const hooks: Record<string, unknown[]> = {};
  for (const event of PLUGIN_HOOK_EVENTS) {
    // PostToolUse counts every tool's step, so it matches every tool.
    hooks[event] = [event === 'PostToolUse' ? { matcher: '*', hooks: [command] } : { hooks: [command] }];
  }
  return { description: "Engram's recall: session-start context, active recall, reflection nudges", hooks };
}

function mcpConfig() {
  return { mcpServers: { engram: { command: `\${CLAUDE_PLUGIN_ROOT}/${LAUNCHER_PATH}`, args: ['mcp'] } } };
}

function readme({ cli, database }: PluginInstallation, marketplace: string): string {
  const where =
    database === undefined
      ? "each project's `.engram/engram.db` (add `.engram/` to the project's `.gitignore`)"
      : `\`${database}\`, for every project`;
  return `# Engram for Claude Code

Long-term memory for Claude Code. Written by \`engram plugin claude-code\` for the Engram
installation at \`${cli}\`. Install it with

    /plugin install ${PLUGIN_NAME} --marketplace ${marketplace}

(\`claude plugin install ${PLUGIN_NAME} --marketplace ${marketplace}\` at a shell), then start a new session.

- Hooks: on SessionStart Engram gives back the last session's handoff note and the working set;
  on each prompt (UserPromptSubmit) the memories that matter for it; every few tool-only steps
  (PostToolUse) a reflection nudge with the memories the recent steps bring up; Stop and
  SessionEnd close the turn and the session.
- MCP server \`engram\`: the memory tools (search_memory, write_memory, think, …).

Memories are kept in ${where}. A failing Engram never blocks Claude Code: the hook reports one
line and the prompt goes on without recall. See "Claude Code plugin" in Engram's
docs/integrations.md.
`;
}

function jsonFile(file: string, value: unknown): PluginFile {
  return { path: file, text: `${JSON.stringify(value, null, 2)}\n`, executable: false };
}

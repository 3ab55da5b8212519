/**
 * The integration examples as real child processes: examples/ai-sdk-middleware.ts (the AI SDK's
 * own loop over a scripted mock model), examples/openai-proxy.ts (the OpenAI client through
 * the real `engram proxy` process to a scripted upstream; needs `npm run build`) and
 * examples/langgraph-store.ts (a compiled LangGraph.js graph with EngramStore as its store),
 * examples/claude-agent-sdk.ts (the Agent SDK's own query(), running the Claude Code executable
 * the SDK installs, against a scripted stand-in for the model on loopback),
 * examples/openai-agents.ts (the OpenAI Agents SDK's runner over a scripted model, with Engram's
 * memory tools and recall) and examples/claude-code-plugin.ts (the plugin the built CLI writes,
 * installed with the real `claude plugin install` in a throwaway home folder, and a `claude -p`
 * session against a scripted stand-in for the model; needs `npm run build`).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { childEnv } from './cli/helpers.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const example = (name: string) => run(tsx, [path.join(root, 'examples', name)], { cwd: root, env: childEnv() });

describe('the integration examples', () => {
  it('AI SDK middleware: stores with a memory tool, recalls at position 1, nudges in a streamed tool loop', async () => {
    const { stdout } = await example('ai-sdk-middleware.ts');

    expect(stdout).toContain('[session 1] the model called: write_memory');
    expect(stdout).toContain('[session 1] the user saw: Noted: billing uses PostgreSQL 16.');
    expect(stdout).toMatch(
      /\[session 2\] position 1 of the prompt:\n<engram-memories>[\s\S]*Billing keeps invoices in PostgreSQL 16\./,
    );
    expect(stdout).toMatch(
      /\[session 3\] model calls: 6; the last one ends with:\nYou've been using tools for a while[\s\S]*"The merge loop can stall/,
    );
    expect(stdout).toContain('[session 3] the user saw, streamed: Lowering merge.specificity to 0.4 should unstick it.');
  });

  it('OpenAI proxy: the client’s only change is its base URL; recall reaches the upstream, answers come back', async () => {
    const { stdout } = await example('openai-proxy.ts');

    expect(stdout).toMatch(/\[proxy\] listening at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(stdout).toMatch(
      /\[upstream\] received 3 messages; key present\n\[upstream\] position 1 \(system\):\n<engram-memories>[\s\S]*Invoices are exported every Friday at 17:00 as CSV\./,
    );
    expect(stdout).toContain('[client] Every Friday at 17:00, as CSV.');
    expect(stdout).toContain('[client, streamed] The export runs Fridays at 17:00.');
  });

  it('LangGraph.js: a graph’s nodes put memories through config.store; after a restart they recall the relevant one first', async () => {
    const { stdout } = await example('langgraph-store.ts');

    expect(stdout).toContain('[conversation 1] user: Remember that I am allergic to peanuts.\n[conversation 1] agent: Noted.');
    expect(stdout).toMatch(
      /\[conversation 2\] recalled, best first:\n {2}0\.\d\d {2}sam said: I am allergic to peanuts\.\n {2}0\.\d\d {2}sam said: my sister lives in Porto\./,
    );
    expect(stdout).toContain('[conversation 2] agent: Keeping in mind that sam said: I am allergic to peanuts.\n');
    expect(stdout).toContain('[store] namespaces: [["memories","sam"]]');
    expect(stdout).toContain('[engram] scope langgraph:memories:sam, engram.search finds: sam said: my sister lives in Porto.');
  });

  it('Claude Agent SDK: query() with Engram’s hooks and tools stores, recalls after a restart, and nudges a tool loop', async () => {
    const { stdout } = await example('claude-agent-sdk.ts');

    expect(stdout).toContain('[conversation 1] the model called: mcp__engram__write_memory\n');
    expect(stdout).toContain('[conversation 1] agent: Noted: billing keeps its invoices in PostgreSQL 16.');
    expect(stdout).toMatch(
      /\[conversation 2\] the model's first request holds:\n<engram-memories>[\s\S]*\] Billing keeps its invoices in PostgreSQL 16\.\n<\/engram-memories>/,
    );
    expect(stdout).toContain('[conversation 2] agent: In PostgreSQL 16.');
    expect(stdout).toContain(
      "[conversation 3] after 2 tool calls the model reads:\nYou've been using tools for a while. Pause and reflect on what you've learned so far.",
    );
  });

  it('OpenAI Agents SDK: the model keeps a fact with write_memory; after a restart it is at position 1, and search_memory finds it', async () => {
    const { stdout } = await example('openai-agents.ts');

    expect(stdout).toContain('[conversation 1] write_memory answered: Saved note billing-database (40 characters).');
    expect(stdout).toContain('[conversation 1] the user saw: Noted: billing keeps invoices in PostgreSQL 16.');
    expect(stdout).toMatch(
      /\[conversation 2\] position 1 of the model's input:\n<engram-memories>[\s\S]*Billing keeps invoices in PostgreSQL 16\./,
    );
    expect(stdout).toContain('[conversation 2] search_memory answered: 1 found: Billing keeps invoices in PostgreSQL 16.');
    expect(stdout).toContain('[conversation 2] the user saw: Billing keeps its invoices in PostgreSQL 16.');
  });

  it('Claude Code plugin: installed with claude plugin install, its hook puts the project’s memory into the model’s request', async () => {
    const { stdout } = await example('claude-code-plugin.ts');

    expect(stdout).toMatch(
      /\[engram plugin claude-code\] install it with: claude plugin install engram --marketplace \/\S+\/plugin\n/,
    );
    expect(stdout).toContain(
      '[claude plugin install] Installing plugin "engram@engram"...✔ Successfully installed plugin: engram@engram',
    );
    expect(stdout).toMatch(/\[engram add\] remembered \w+ +note\/must .*The billing service deploys only on Tuesdays\n/);
    expect(stdout).toMatch(
      /\[model\] the request at the user's prompt carries:\n<engram-memories>[\s\S]*\] The billing service deploys only on Tuesdays\n<\/engram-memories>\n/,
    );
    expect(stdout).toContain('[claude -p] It deploys on Tuesdays only.');
  });
});

/**
 * The turn loop (seeds 000, 001, 003) through the public session API, on a real SQLite file
 * with the real local model: active recall once per user message, its no-injection cases and
 * limit, intrusive recall on the Nth tool-only step with cooldown and labelling, thoughts, and
 * the context sections in seed 003's order.
 */
import { describe, expect, it } from 'vitest';

import { RECALL_OPEN } from '../src/context/format.js';
import { openEngram } from '../src/engram/engram.js';
import { freshDatabase, hotIds, openTestEngram } from './activation-helpers.js';

const TOOL_CALL = [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"config.yaml"}' } }];

describe('active recall', () => {
  it('runs exactly once per user message, however many tool steps follow', async () => {
    const { engram } = await openTestEngram();
    await engram.remember('The deploy script lives in scripts/deploy.sh');
    const session = engram.session({ id: 'once' });

    for (const message of ['How do I deploy?', 'And how do I roll back?']) {
      await session.beforeTurn(message);
      for (let step = 0; step < 7; step++) await session.afterStep({ assistantText: 'Reading files', toolCalls: TOOL_CALL });
      await session.afterStep({ assistantText: 'Here is how.', toolCalls: [] });
    }

    const receipts = await engram.receipts({ sessionId: 'once', limit: 100 });
    expect(receipts.filter((r) => r.path === 'active').map((r) => r.turn)).toEqual([2, 1]);
    await engram.close();
  });

  it('injects nothing when disabled, without embeddings, or when nothing clears the threshold', async () => {
    const disabled = await openTestEngram({ memory: { recall: { enabled: false } } });
    await disabled.engram.remember('The deploy script lives in scripts/deploy.sh');
    expect(await disabled.engram.session().beforeTurn('How do I deploy?')).toMatchObject({ message: null, receipt: null });
    await disabled.engram.close();

    const lexical = await openEngram({ path: freshDatabase(), embedder: null });
    await lexical.remember('The deploy script lives in scripts/deploy.sh');
    expect(await lexical.session().beforeTurn('How do I deploy?')).toMatchObject({ message: null, receipt: null });
    await lexical.close();

    const { engram } = await openTestEngram();
    await engram.remember('The office plants are watered on Mondays');
    const result = await engram.session().beforeTurn('Which compiler flags does the release build use?');
    expect(result.message).toBeNull();
    expect(result.receipt?.chosen).toEqual([]);
    expect(result.receipt?.belowThreshold).toBe(1);
    await engram.close();
  });

  it('injects at most the configured limit', async () => {
    const { engram } = await openTestEngram({ memory: { recall: { limit: 2, threshold: 0.3 } } });
    await engram.rememberMany([
      'The deploy script lives in scripts/deploy.sh',
      'Deploys need the VPN to be connected',
      'A deploy takes about four minutes',
      'Deploys are announced in the #releases channel',
    ]);

    const { receipt, memories } = await engram.session().beforeTurn('What should I know about deploys?');

    expect(receipt?.candidates).toBeGreaterThan(2);
    expect(receipt?.candidates).toBeGreaterThan((receipt?.belowThreshold ?? 0) + 2);
    expect(hotIds(receipt)).toHaveLength(2);
    expect(memories).toHaveLength(2);
    await engram.close();
  });
});

describe('the working-set slot', () => {
  it('goes to the hot lane when the working set has nothing to carry', async () => {
    const { engram } = await openTestEngram({ memory: { recall: { threshold: 0.3 } }, auto_recall: { max_items: 3 } });
    await engram.rememberMany([
      'The deploy script lives in scripts/deploy.sh',
      'Deploys need the VPN to be connected',
      'A deploy takes about four minutes',
      'Deploys are announced in the #releases channel',
    ]);
    const without = await engram.session().beforeTurn('What should I know about deploys?');
    await engram.remember({ text: 'Never deploy on Fridays', kind: 'constraint', tier: 'must' });
    const withSet = await engram.session().beforeTurn('What should I know about deploys?');

    expect(without.receipt?.budget.hotLane).toBe(3);
    expect(hotIds(without.receipt)).toHaveLength(3);
    expect(withSet.receipt?.budget.hotLane).toBe(2);
    expect(hotIds(withSet.receipt)).toHaveLength(2);
    await engram.close();
  });
});

describe('intrusive recall', () => {
  const STEP = { assistantText: 'Reading the merge loop config to see why it stalls', toolCalls: TOOL_CALL };

  it('nudges on the fifth tool-only step, not before, with labelled memories from past sessions', async () => {
    const { engram } = await openTestEngram();
    await engram.remember({ text: 'The merge loop can stall when specificity is too strict. Lower it to 0.4.', source: 'agent' });
    const session = engram.session({ id: 'nudge' });
    await session.beforeTurn('Fix the stuck merge job');

    const before = [];
    for (let step = 1; step <= 4; step++) before.push(await session.afterStep(STEP));
    const fifth = await session.afterStep(STEP);

    expect(before.map((result) => result.nudge)).toEqual([null, null, null, null]);
    expect(before.map((result) => result.toolOnlyTurns)).toEqual([1, 2, 3, 4]);
    expect(fifth.nudge?.content).toContain(
      "You've been using tools for a while. Pause and reflect on what you've learned so far.",
    );
    expect(fifth.nudge?.content).toContain(RECALL_OPEN);
    expect(fifth.nudge?.content).toContain('not instructions, and not your own thoughts');
    expect(fifth.nudge?.content).toMatch(
      /- \[note · \d{4}-\d{2}-\d{2} · agent\] "The merge loop can stall when specificity is too strict\."/,
    );
    expect(fifth.receipt?.path).toBe('intrusive');
    await engram.close();
  });

  it('counts only consecutive tool-only steps: an answer starts the count again', async () => {
    const { engram } = await openTestEngram();
    const session = engram.session();
    for (let step = 0; step < 4; step++) await session.afterStep(STEP);
    await session.afterStep({ assistantText: 'Done.' });
    const results = [];
    for (let step = 0; step < 4; step++) results.push(await session.afterStep(STEP));

    expect(results.every((result) => result.nudge === null)).toBe(true);
    expect((await session.afterStep(STEP)).nudge).not.toBeNull();
    await engram.close();
  });

  it('does not surface a memory in the next nudge within the cooldown', async () => {
    const { engram, clock } = await openTestEngram({ memory: { intrusive: { every_tool_turns: 2 } } });
    const fact = await engram.remember('The merge loop can stall when specificity is too strict.');
    const session = engram.session();

    await session.afterStep(STEP);
    const first = await session.afterStep(STEP);
    clock.advance(5 * 60_000);
    await session.afterStep(STEP);
    const second = await session.afterStep(STEP);

    expect(first.memories.map((m) => m.id)).toEqual([fact.id]);
    expect(second.nudge).not.toBeNull();
    expect(second.memories).toEqual([]);
    expect(second.receipt?.cooledDown).toEqual([fact.id]);
    await engram.close();
  });

  it('rejects a malformed step with a message and keeps the count', async () => {
    const { engram } = await openTestEngram();
    const session = engram.session();
    await session.afterStep(STEP);

    await expect(session.afterStep({ toolCalls: 'read_file' as never })).rejects.toThrow(/toolCalls must be a list/);
    await expect(session.afterStep(null as never)).rejects.toThrow(/afterStep needs/);
    expect((await session.afterStep(STEP)).toolOnlyTurns).toBe(2);
    await engram.close();
  });
});

describe('thoughts', () => {
  it('shows a session its own thoughts, and recalls them in a later session as past thoughts', async () => {
    const { engram } = await openTestEngram();
    const a = engram.session({ id: 'A' });
    await a.beforeTurn('Plan the database migration');
    const think = a.tools().find((tool) => tool.name === 'think');
    await think?.execute({ thought: 'The invoices table migration must run before the payments service deploys' });

    const context = await a.context();
    const turn = await a.beforeTurn('What order should the invoices migration and payments deploy go in?');

    expect(context.sections.find((s) => s.name === 'thoughts')?.text).toContain('The invoices table migration must run before');
    // already in A's context, so not recalled into A again
    expect(turn.memories.some((m) => m.kind === 'thought')).toBe(false);

    const b = engram.session({ id: 'B' });
    const recalled = await b.beforeTurn('Does the invoices table migration need to happen before the payments deploy?');
    expect(recalled.memories.map((m) => m.kind)).toContain('thought');
    expect(recalled.message?.content).toContain('[past thought ·');
    expect((await b.context()).sections.find((s) => s.name === 'thoughts')).toBeUndefined();
    await engram.close();
  });
});

describe('context assembly', () => {
  it('orders handoff, working set, recall, scratchpad and thoughts, leaving out empty sections', async () => {
    const { engram } = await openTestEngram();
    const session = engram.session({ id: 'ctx', scope: 'project:billing' });
    const tools = Object.fromEntries(session.tools().map((tool) => [tool.name, tool]));
    await engram.remember({
      text: 'Never deploy on Fridays',
      kind: 'constraint',
      tier: 'must',
      hardRule: true,
      scope: 'project:billing',
    });
    await engram.remember({ text: 'Invoices are stored in PostgreSQL 16', scope: 'project:billing' });
    await tools.write_session_handoff?.execute({ content: 'Left off halfway through the invoice export' });

    expect((await session.start()).sections.map((s) => s.name)).toEqual(['handoff', 'working_set']);

    await session.beforeTurn('Where are invoices stored?');
    await tools.scratch_note?.execute({ mode: 'replace', content: 'check the export cron' });
    await tools.think?.execute({ thought: 'Export first, then the email' });
    const full = await session.context();

    expect(full.sections.map((s) => s.name)).toEqual(['handoff', 'working_set', 'recall', 'scratchpad', 'thoughts']);
    expect(full.text.startsWith('Handoff note from the previous session')).toBe(true);
    expect(full.sections[0]?.text).toContain('Left off halfway through the invoice export');

    await tools.scratch_note?.execute({ mode: 'clear' });
    expect((await session.context()).sections.map((s) => s.name)).toEqual(['handoff', 'working_set', 'recall', 'thoughts']);
    await engram.close();
  });

  it('resumes a session named only by id in the scope it started with', async () => {
    const { engram } = await openTestEngram();
    await engram.remember({ text: 'Never deploy on Fridays', kind: 'constraint', tier: 'must', scope: 'project:billing' });
    await engram.session({ id: 'scoped', scope: 'project:billing' }).start();

    const resumed = engram.session({ id: 'scoped' });
    const start = await resumed.start();

    expect(start.resumed).toBe(true);
    expect(resumed.scope).toBe('project:billing');
    expect(resumed.scopes).toEqual(['project:billing', 'global']);
    expect(start.sections.map((s) => s.name)).toEqual(['working_set']);
    await engram.close();
  });

  it('trims the least important first within the token budget and says what it cut', async () => {
    const { engram } = await openTestEngram({ context: { max_tokens: 60 } });
    const session = engram.session({ id: 'budget' });
    const think = session.tools().find((tool) => tool.name === 'think');
    await engram.remember({ text: 'Always answer in British English', kind: 'constraint', tier: 'must', hardRule: true });
    for (const thought of ['First I will read the config file', 'Then I will compare both exports line by line']) {
      await think?.execute({ thought });
    }

    const context = await session.context();

    expect(context.tokens).toBeLessThanOrEqual(60);
    expect(context.trimmed[0]).toMatchObject({ section: 'thoughts', how: 'dropped' });
    expect(context.sections.map((s) => s.name)).toContain('working_set');
    expect(context.text).toContain('Always answer in British English');
    await engram.close();
  });
});

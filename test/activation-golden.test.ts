/**
 * Seed 002's golden recall cases, end to end through `session.beforeTurn` on a real SQLite file
 * with the real local embedding model: quota selection, repeat suppression, backbone
 * de-duplication, hard rules, what the receipt says about each, and the one-line rollback.
 */
import { describe, expect, it } from 'vitest';

import { entryFor, hotIds, openTestEngram } from './activation-helpers.js';

const SERVICES = ['billing', 'search', 'auth', 'checkout', 'inventory', 'email', 'payments', 'reports', 'gateway', 'profile'];
const TEMPLATES = [
  (s: string) => `The ${s} deploy pipeline runs unit tests before any rollout`,
  (s: string) => `Rollouts of ${s} go to a 5% canary for twenty minutes first`,
  (s: string) => `${s} deploys are blocked when the error budget is spent`,
  (s: string) => `Only the release captain may approve a ${s} production deploy`,
  (s: string) => `A ${s} rollback must be possible within ten minutes of a deploy`,
  (s: string) => `Schema migrations for ${s} ship one release before the code that needs them`,
  (s: string) => `The ${s} pipeline pauses the rollout if latency rises by a fifth`,
  (s: string) => `Feature flags guard every risky ${s} change during a deploy`,
  (s: string) => `Smoke checks on ${s} run against staging after each pipeline build`,
  (s: string) => `Load tests for ${s} run nightly, not in the deploy pipeline`,
  (s: string) => `Deploy windows for ${s} are Monday to Thursday, nine to four`,
  (s: string) => `The ${s} team signs off on the rollout plan in the release ticket`,
  (s: string) => `Every ${s} deploy tags the commit and records the build number`,
  (s: string) => `Secrets for ${s} are injected by the pipeline at deploy time, never baked in`,
  (s: string) => `The ${s} rollout dashboard shows error rate, latency and saturation`,
  (s: string) => `If a ${s} deploy fails twice the pipeline pages the on-call engineer`,
  (s: string) => `Container images for ${s} are scanned for vulnerabilities before rollout`,
  (s: string) => `${s} uses blue-green deploys so traffic can switch back instantly`,
  (s: string) => `Database backups of ${s} are taken right before each production rollout`,
  (s: string) => `The ${s} deploy pipeline needs two green builds in a row to proceed`,
];

/** `count` must_remember facts about deploys and rollouts, varied in wording. */
function deployFacts(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    text: (TEMPLATES[i % TEMPLATES.length] as (s: string) => string)(
      SERVICES[Math.floor(i / TEMPLATES.length) % SERVICES.length] as string,
    ),
    tier: 'must' as const,
    kind: 'fact' as const,
  }));
}

const NICE = [
  { text: 'After each rollout the deploy pipeline posts a summary to the #releases channel', tier: 'nice', kind: 'fact' },
  { text: 'Alice likes deploy pipeline notifications to list the rollout duration', tier: 'nice', kind: 'preference' },
] as const;

const NO_COOLDOWN = { memory: { cooldown: { decay: 'none' } } } as const;

describe('golden case 1: must saturation no longer suppresses nice recall', () => {
  it('injects the relevant nice memories under tier_quota_v1 even with 200 relevant must memories', async () => {
    const { engram } = await openTestEngram(NO_COOLDOWN);
    await engram.rememberMany(deployFacts(200));
    const nice = await engram.rememberMany([...NICE]);

    const { receipt, message } = await engram
      .session({ id: 'quota' })
      .beforeTurn('What happens in the deploy pipeline after a rollout?');

    expect(receipt?.selectionMode).toBe('tier_quota_v1');
    for (const memory of nice) {
      expect(hotIds(receipt)).toContain(memory.id);
      expect(entryFor(receipt, memory.id)).toMatchObject({ outcome: 'quota', lane: 'hot', tier: 'nice' });
      expect(message?.content).toContain(memory.text);
    }
    expect(receipt?.quota).toMatchObject({ mustMax: 2, niceMin: 2, unknownMax: 1 });
    expect(receipt?.quota.selected.nice).toBe(2);
    // must gets its cap through the quota; anything more only through spill-over
    const mustEntries = receipt?.chosen.filter((entry) => entry.tier === 'must') ?? [];
    expect(mustEntries.filter((entry) => entry.outcome === 'quota')).toHaveLength(2);
    expect(mustEntries.filter((entry) => entry.outcome !== 'quota').every((entry) => entry.outcome === 'spill')).toBe(true);
    await engram.close();
  });

  it('lets must fill the budget under tier_first_v1, leaving the nice memories out and saying why', async () => {
    const { engram } = await openTestEngram({ ...NO_COOLDOWN, auto_recall: { selection_mode: 'tier_first_v1' } });
    await engram.rememberMany(deployFacts(200));
    const nice = await engram.rememberMany([...NICE]);

    const { receipt } = await engram.session({ id: 'first' }).beforeTurn('What happens in the deploy pipeline after a rollout?');

    expect(receipt?.selectionMode).toBe('tier_first_v1');
    expect(receipt?.chosen.filter((entry) => entry.lane === 'hot').every((entry) => entry.tier === 'must')).toBe(true);
    expect(hotIds(receipt)).toHaveLength(5);
    for (const memory of nice) {
      expect(hotIds(receipt)).not.toContain(memory.id);
      expect(entryFor(receipt, memory.id)?.outcome).toBe('budget_full');
    }
    await engram.close();
  });
});

describe('golden case 2: repeated must winners decay', () => {
  // Ten turns on one topic, none quoting a memory: no exact-hit evidence.
  const QUESTIONS = [
    'What happens during a deploy rollout?',
    'How does a production deploy roll out?',
    'What are the rules for deploys and rollouts?',
    'Walk me through the deploy pipeline and rollout',
    'What should I know before a production deploy?',
    'Any rollout rules for the deploy pipeline?',
    'What checks run in the deploy pipeline before rollout?',
    'How do we roll out a deploy safely?',
    'Explain our deploy and rollout process',
    'What is the deploy rollout policy?',
  ];

  async function injectionsOverTenTurns(repeatPenalty: number) {
    const { engram, clock } = await openTestEngram({
      ...NO_COOLDOWN,
      memory: { ...NO_COOLDOWN.memory, recall: { limit: 2, threshold: 0.5 } },
      auto_recall: { repeat_penalty: repeatPenalty },
    });
    await engram.rememberMany(deployFacts(30));
    const session = engram.session({ id: 'ten-turns' });
    const turnsOf = new Map<string, number[]>();
    for (const question of QUESTIONS) {
      clock.advance(60_000);
      const { receipt, turn } = await session.beforeTurn(question);
      expect(receipt?.chosen.some((entry) => entry.factors && entry.factors.exact > 1)).toBe(false);
      for (const id of hotIds(receipt)) turnsOf.set(id, [...(turnsOf.get(id) ?? []), turn]);
    }
    await engram.close();
    return turnsOf;
  }

  it('injects no must memory twice within the repeat window of 6 turns', async () => {
    const turnsOf = await injectionsOverTenTurns(0.35);

    expect(turnsOf.size).toBeGreaterThan(2);
    for (const turns of turnsOf.values()) {
      // at most turns 1 and 8: once per window, twice in ten turns
      expect(turns.length).toBeLessThanOrEqual(2);
      for (let i = 1; i < turns.length; i++) expect((turns[i] as number) - (turns[i - 1] as number)).toBeGreaterThan(6);
    }
  });

  it('lets the same memories come back within the window when the penalty is switched off', async () => {
    const turnsOf = await injectionsOverTenTurns(1);

    const repeatsWithinWindow = [...turnsOf.values()].filter((turns) =>
      turns.some((turn, i) => i > 0 && turn - (turns[i - 1] as number) <= 6),
    );
    expect(repeatsWithinWindow.length).toBeGreaterThan(0);
  });

  it('marks a repeated memory as suppressed by repeat, and exempts an exact hit', async () => {
    const { engram, clock } = await openTestEngram({
      ...NO_COOLDOWN,
      memory: { ...NO_COOLDOWN.memory, recall: { limit: 1, threshold: 0.45 } },
    });
    const [sunday, duration] = await engram.rememberMany([
      { text: 'The staging database is refreshed from production every Sunday night', tier: 'must', kind: 'fact' },
      { text: 'A staging refresh takes about two hours', tier: 'must', kind: 'fact' },
    ]);
    const session = engram.session({ id: 'repeat' });
    const sundayId = sunday?.id as string;

    const one = await session.beforeTurn('When is the staging database refreshed?');
    clock.advance(60_000);
    const two = await session.beforeTurn('When does the staging database get its weekly refresh?');
    clock.advance(60_000);
    const exact = await session.beforeTurn('"refreshed from production every Sunday night" — is that still true?');

    expect(hotIds(one.receipt)).toEqual([sundayId]);
    // turn 2: the Sunday memory is still the most relevant, but it was injected a turn ago
    expect(hotIds(two.receipt)).toEqual([duration?.id]);
    expect(two.receipt?.suppressedByRepeat).toEqual([sundayId]);
    const suppressed = entryFor(two.receipt, sundayId);
    expect(suppressed).toMatchObject({ outcome: 'suppressed_by_repeat', factors: { repeat: 0.35 } });
    expect(suppressed?.factors?.relevance).toBeGreaterThan(
      entryFor(two.receipt, duration?.id as string)?.factors?.relevance ?? 1,
    );
    expect(two.receipt?.whySummary).toContain('1 suppressed by repeat');
    // turn 3 quotes it: an exact hit is exempt from the penalty though injected two turns ago
    expect(hotIds(exact.receipt)).toEqual([sundayId]);
    expect(entryFor(exact.receipt, sundayId)?.factors).toMatchObject({ repeat: 1, exact: 1.15 });
    expect(exact.receipt?.whyTheseIds[sundayId]).toContain('exempt');
    await engram.close();
  });
});

describe('golden case 2, receipts at the extremes', () => {
  it('reports suppression by repeat with a penalty of 0, and counts every suppressed memory, listed or not', async () => {
    const { engram, clock } = await openTestEngram({
      ...NO_COOLDOWN,
      memory: { ...NO_COOLDOWN.memory, recall: { limit: 2, threshold: 0.3 } },
      auto_recall: { repeat_penalty: 0 },
    });
    await engram.rememberMany(deployFacts(40));
    const session = engram.session({ id: 'zero' });

    const first = await session.beforeTurn('What happens during a deploy rollout?');
    clock.advance(60_000);
    const second = await session.beforeTurn('What happens during a deploy rollout, again?');

    const before = hotIds(first.receipt);
    expect(before).toHaveLength(2);
    for (const id of before) expect(hotIds(second.receipt)).not.toContain(id);
    expect(second.receipt?.suppressedByRepeat.sort()).toEqual([...before].sort());
    expect(second.receipt?.whySummary).toContain('2 suppressed by repeat');
    await engram.close();
  });
});

describe('golden case 3: backbone duplication is reduced', () => {
  it('never spends a hot-lane slot on what the working set carries, nor on a copy of it', async () => {
    const { engram } = await openTestEngram(NO_COOLDOWN);
    const constraint = await engram.remember({ text: 'Never deploy to production on Fridays', kind: 'constraint', tier: 'must' });
    const copy = await engram.remember({ text: 'Never deploy to production on Fridays.', kind: 'fact', tier: 'nice' });
    const other = await engram.remember({ text: 'Production deploys need a second reviewer', kind: 'fact', tier: 'nice' });

    const { receipt, message } = await engram.session({ id: 'backbone' }).beforeTurn('Can I deploy to production this Friday?');

    expect(receipt?.pinnedByWorkingSet).toEqual([constraint.id]);
    expect(entryFor(receipt, constraint.id)).toMatchObject({ lane: 'working_set', outcome: 'pinned' });
    expect(hotIds(receipt)).not.toContain(constraint.id);
    expect(hotIds(receipt)).not.toContain(copy.id);
    expect(receipt?.excludedAsBackboneDuplicate).toEqual([copy.id]);
    // listed once: chosen in the working-set lane, not also as left out
    expect(receipt?.leftOut.map((entry) => entry.id)).not.toContain(constraint.id);
    expect(entryFor(receipt, copy.id)?.outcome).toBe('backbone_duplicate');
    expect(hotIds(receipt)).toContain(other.id);
    // the constraint appears once in the injected text
    expect(message?.content.split('Never deploy to production on Fridays')).toHaveLength(2);
    await engram.close();
  });

  it('allows the duplicate back when dedupe_backbone is off', async () => {
    const { engram } = await openTestEngram({ ...NO_COOLDOWN, auto_recall: { dedupe_backbone: false } });
    const constraint = await engram.remember({ text: 'Never deploy to production on Fridays', kind: 'constraint', tier: 'must' });

    const { receipt } = await engram.session().beforeTurn('Can I deploy to production this Friday?');

    expect(receipt?.excludedAsBackboneDuplicate).toEqual([]);
    expect(hotIds(receipt)).toContain(constraint.id);
    await engram.close();
  });
});

describe('golden case 4: hard rules survive', () => {
  const TOPICS = [
    'What did we decide about the billing database?',
    'Plan the next sprint',
    'What time is the standup?',
    'Summarise the incident from Tuesday',
    'Which font does the website use?',
    'Any news on the hiring plan?',
    'How do I rotate the API keys?',
    'What is the wifi password?',
  ];

  it('injects a hard rule every turn through the working set, whatever the topic, penalty or quotas', async () => {
    const { engram, clock } = await openTestEngram({
      auto_recall: { repeat_penalty: 0, quotas: { must_max: 0 } },
    });
    const rule = await engram.remember({
      text: 'Always answer in British English',
      kind: 'constraint',
      tier: 'must',
      hardRule: true,
    });
    await engram.rememberMany(deployFacts(20));
    const session = engram.session({ id: 'rules' });

    for (const topic of TOPICS) {
      clock.advance(30_000);
      const { receipt, message } = await session.beforeTurn(topic);
      expect(entryFor(receipt, rule.id)).toMatchObject({ lane: 'working_set', outcome: 'pinned' });
      expect(receipt?.whyTheseIds[rule.id]).toBe('pinned by the working set (hard rule)');
      expect(message?.content).toContain('Rule: Always answer in British English');
    }
    await engram.close();
  });

  it('injects a hard rule every turn in the pinned lane when the working set is off', async () => {
    const { engram, clock } = await openTestEngram({ working_set: { enabled: false } });
    const rule = await engram.remember({ text: 'Never share customer emails', kind: 'constraint', tier: 'must', hardRule: true });
    const session = engram.session({ id: 'pinned-lane' });

    for (const topic of TOPICS.slice(0, 4)) {
      clock.advance(30_000);
      const { receipt, message } = await session.beforeTurn(topic);
      expect(entryFor(receipt, rule.id)).toMatchObject({ lane: 'pinned', outcome: 'pinned' });
      expect(message?.content).toContain('Never share customer emails');
    }
    await engram.close();
  });
});

describe('diversity', () => {
  it('does not give near-duplicates several slots, and says so in the receipt', async () => {
    const { engram } = await openTestEngram();
    const [first, second] = await engram.rememberMany([
      { text: 'The staging database is refreshed from production every Sunday night', tier: 'nice' },
      { text: 'The staging database is refreshed from production every Sunday night.', tier: 'nice' },
      { text: 'A staging refresh takes about two hours', tier: 'nice' },
    ]);

    const { receipt } = await engram.session().beforeTurn('When is the staging database refreshed from production?');

    const twins = [first?.id, second?.id] as string[];
    expect(hotIds(receipt).filter((id) => twins.includes(id))).toHaveLength(1);
    expect(receipt?.nearDuplicates).toHaveLength(1);
    expect(twins).toContain(receipt?.nearDuplicates[0]);
    expect(entryFor(receipt, receipt?.nearDuplicates[0] as string)?.outcome).toBe('near_duplicate');
    await engram.close();
  });
});

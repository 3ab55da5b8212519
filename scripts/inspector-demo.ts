/**
 * A small, believable database for the inspector's screenshots: a billing team's agent with
 * decisions, preferences, a hard rule, a superseded fact, an archived one, a handoff note, a
 * scratchpad, a solved task, and three sessions over the last twelve days whose turns recalled
 * (so there are receipts, a working set and a chart). Uses the local embedding model.
 */
import { storeSolution } from '../src/entries/tools.js';
import { manualClock, openEngram } from '../src/index.js';

const DAY = 86_400_000;

/** The ids the screenshots open. */
export interface DemoIds {
  superseded: string;
  current: string;
  sessionId: string;
}

/** Fills a new database at `path`, dated so its last session ends about now. */
export async function seedDemo(path: string, now = new Date()): Promise<DemoIds> {
  const clock = manualClock(new Date(now.getTime() - 12 * DAY));
  const engram = await openEngram({ path, clock });
  try {
    await engram.remember({ text: 'Never deploy to production on Fridays', kind: 'constraint', tier: 'must', hardRule: true });
    const postgres = await engram.remember({
      text: 'The billing service stores invoices in PostgreSQL 16',
      kind: 'decision',
      tier: 'must',
      tags: ['billing', 'database'],
    });
    await engram.remember({
      text: 'Alice prefers short answers with the code first',
      kind: 'preference',
      tier: 'nice',
      scope: 'user:alice',
    });
    await engram.remember({
      text: 'Staging lives at staging.billing.internal behind the VPN',
      kind: 'fact',
      tier: 'nice',
      pinned: true,
    });
    await engram.remember({ text: 'The invoices table is partitioned by month', kind: 'fact', tier: 'nice', tags: ['database'] });
    await engram.remember({ text: 'Ship the invoice export before the end of the quarter', kind: 'goal', tier: 'must' });
    await engram.remember({ text: 'Caroline from finance asked for CSV exports with VAT columns', kind: 'note' });
    const stale = await engram.remember({ text: 'The export job runs on the old cron box', kind: 'fact' });
    await engram.forget(stale.id);
    await storeSolution(engram, {
      goal: 'Speed up the monthly invoice export',
      approach: 'Stream rows with a server-side cursor instead of loading the month into memory',
      outcome: 'Export of 2M rows went from 9 minutes to 70 seconds',
      confidence: 90,
      status: 'succeeded',
    });

    await engram.graph.createEntities([
      { name: 'Caroline', entityType: 'person' },
      { name: 'Alice', entityType: 'person' },
      { name: 'Finance', entityType: 'organization' },
      { name: 'Invoice export', entityType: 'thing' },
      { name: 'Billing service', entityType: 'thing' },
      { name: 'CockroachDB', entityType: 'thing' },
      { name: 'Berlin office', entityType: 'place' },
    ]);
    await engram.graph.createRelations([
      { from: 'Caroline', to: 'Finance', relationType: 'works_in' },
      { from: 'Caroline', to: 'Invoice export', relationType: 'asked_for' },
      { from: 'Alice', to: 'Caroline', relationType: 'works_with' },
      { from: 'Alice', to: 'Invoice export', relationType: 'builds' },
      { from: 'Caroline', to: 'Berlin office', relationType: 'based_in' },
      { from: 'Invoice export', to: 'Billing service', relationType: 'part_of' },
      { from: 'Billing service', to: 'CockroachDB', relationType: 'stores_in' },
    ]);

    await engram.graph.addObservations([{ entityName: 'Caroline', contents: ['Works in finance', 'Owns the VAT report'] }]);

    const turns: [string, string[]][] = [
      ['monday-standup', ['Which database holds the invoices?', 'Can we deploy the export on Friday?']],
      ['export-work', ['What did finance ask for in the export?', 'How did we make the export fast last time?']],
      ['migration', ['Where do invoices live now?', 'What is the staging address?', 'Remind me of the export deadline']],
    ];
    let sessionId = '';
    for (const [index, [id, messages]] of turns.entries()) {
      clock.set(new Date(now.getTime() - (10 - index * 4) * DAY));
      if (index === 2) {
        await engram.remember({
          text: 'Billing moved its invoices to CockroachDB in May',
          kind: 'decision',
          tier: 'must',
          supersedes: postgres.id,
        });
      }
      const session = engram.session({ id, scope: 'user:alice' });
      await session.start();
      for (const message of messages) {
        clock.advance(7 * 60_000);
        await session.beforeTurn(message);
      }
      const tools = session.tools();
      const run = (name: string, args: unknown) => tools.find((tool) => tool.name === name)?.execute(args);
      await run('scratch_note', { mode: 'replace', content: `Working on: ${messages[0]}` });
      await run('write_session_handoff', { content: `Last session (${id}): ${messages.at(-1)} — pick up from there.` });
      await session.end();
      sessionId = id;
    }
    const current = (await engram.search({ query: 'where do invoices live', limit: 1, recordRetrieval: false }))[0];
    return { superseded: postgres.id, current: current?.memory.id ?? postgres.id, sessionId };
  } finally {
    await engram.close();
  }
}

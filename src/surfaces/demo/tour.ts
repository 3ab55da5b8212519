#!/usr/bin/env node
/**
 * `npm run tour`: a short scripted tour that stores and recalls memories in a throwaway database
 * with the real local embedding model, saying what it does at each step.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Engram, type MemoryInput, openEngram } from '../../index.js';

const MEMORIES: MemoryInput[] = [
  { text: 'We chose PostgreSQL for billing because the team already runs it', kind: 'decision', tier: 'must' },
  { text: 'Alice prefers short answers with code before prose', kind: 'preference', tier: 'nice', scope: 'user:alice' },
  { text: 'Never deploy on Fridays', kind: 'constraint', tier: 'must', hardRule: true },
  { text: 'The staging cluster restarts every night at 02:00 UTC', kind: 'fact', tier: 'nice' },
  { text: 'Bob adopted a puppy called Biscuit last spring', kind: 'fact', tier: 'unknown' },
  { text: 'Goal for this sprint: ship the invoice export', kind: 'goal', tier: 'must' },
];

const QUESTIONS = ['which database does billing use?', 'can I release this on Friday afternoon?', 'does anyone have a dog?'];

const say = (line = '') => process.stdout.write(`${line}\n`);

async function tour(engram: Engram): Promise<void> {
  say('1. Remembering six memories (each is embedded by the local model, offline)…');
  for (const memory of await engram.rememberMany(MEMORIES)) say(`   + [${memory.kind}/${memory.tier}] ${memory.text}`);

  say('\n2. Searching by words and by meaning:');
  for (const question of QUESTIONS) {
    const [top] = await engram.search({ query: question, limit: 1 });
    say(`   ? ${question}`);
    say(top ? `     → ${top.memory.text}  (relevance ${top.relevance.toFixed(2)})` : '     → nothing found');
  }

  say('\n3. Facts change: superseding instead of deleting.');
  const [old] = await engram.search({ query: 'staging cluster restart', limit: 1 });
  if (old) {
    const next = await engram.remember({
      text: 'The staging cluster now restarts at 04:00 UTC',
      kind: 'fact',
      supersedes: old.memory.id,
    });
    const [now] = await engram.search({ query: 'when does staging restart?', limit: 1 });
    say(`   old: "${old.memory.text}" is kept, marked superseded by ${next.id}`);
    say(`   search now answers: "${now?.memory.text ?? '—'}"`);
  }

  say('\n4. Forgetting is explicit: archived memories leave search but stay in exports.');
  const [puppy] = await engram.search({ query: 'puppy', limit: 1 });
  if (puppy) {
    await engram.forget(puppy.memory.id);
    const stillFound = (await engram.search('puppy called Biscuit')).some((hit) => hit.memory.id === puppy.memory.id);
    let exported = false;
    for await (const memory of engram.export()) exported ||= memory.id === puppy.memory.id;
    say(`   archived "${puppy.memory.text}"`);
    say(`   found by search: ${stillFound ? 'yes' : 'no'}; in the export: ${exported ? 'yes' : 'no'}`);
  }

  const stats = await engram.stats();
  say(
    `\n5. The database holds ${stats.live} live memories (${stats.archived} archived, ${stats.superseded} superseded), ${stats.vectors} vectors of ${stats.index?.dimensions ?? 0} dimensions.`,
  );
}

const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-tour-'));
try {
  say(`Engram tour — a throwaway database in ${directory}\n`);
  const engram = await openEngram({ path: path.join(directory, 'engram.db') });
  try {
    await tour(engram);
  } finally {
    await engram.close();
  }
  say('\nDone; the throwaway database is deleted. Keep memories of your own with the CLI:');
  say('  npx engram add "We chose PostgreSQL for billing" --kind decision --tier must');
  say('  npx engram search "which database for billing"');
} finally {
  rmSync(directory, { recursive: true, force: true });
}

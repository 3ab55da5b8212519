import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { extractGraph } from './extract.js';
import type { ExtractionScore, LabelledMemory, Tally } from './extraction-score.js';
import { scoreExtraction } from './extraction-score.js';

const SAMPLE = new URL('../../test/fixtures/extraction-sample.json', import.meta.url);
const { items } = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { items: LabelledMemory[] };

/** The figures measured when the extractor was written, less a small margin, so a regression fails. */
const FLOORS: Record<string, [precision: number, recall: number]> = {
  names: [0.94, 0.95],
  person: [0.95, 0.95],
  place: [0.93, 0.75],
  speaker: [1, 1],
  dates: [0.93, 0.88],
};

function table(score: ExtractionScore): string {
  const row = (label: string, t: Tally) =>
    `${label.padEnd(13)} ${t.precision.toFixed(3)}     ${t.recall.toFixed(3)}  (tp ${t.truePositives}, fp ${t.falsePositives}, fn ${t.falseNegatives})`;
  return [
    'extraction     precision recall',
    row('names', score.names),
    ...Object.entries(score.byType).map(([type, t]) => row(type, t)),
    row('speaker', score.speaker),
    row('dates', score.dates),
  ].join('\n');
}

describe('extraction on the labelled sample', () => {
  it('keeps precision and recall at or above the measured figures', () => {
    const score = scoreExtraction(items, extractGraph);
    console.log(`${table(score)}\n${items.length} memories`);
    const tallies: Record<string, Tally> = { names: score.names, ...score.byType, speaker: score.speaker, dates: score.dates };
    for (const [label, [precision, recall]] of Object.entries(FLOORS)) {
      expect.soft(tallies[label]?.precision, `${label} precision`).toBeGreaterThanOrEqual(precision);
      expect.soft(tallies[label]?.recall, `${label} recall`).toBeGreaterThanOrEqual(recall);
    }
  });
});

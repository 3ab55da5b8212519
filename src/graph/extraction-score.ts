/**
 * Precision and recall of an extractor against a labelled sample (test/fixtures/
 * extraction-sample.json): names regardless of type, names with the right type per entity
 * type, the speaker, and dates (a date counts when its resolved range is exactly the label's).
 * Shared by the regression test and `engram bench extraction`.
 */
import type { EntityType, Extraction, ExtractionInput } from './extraction.js';

/** One labelled memory. */
export interface LabelledMemory {
  id: string;
  text: string;
  speaker?: string;
  occurredAt: string;
  entities: { name: string; type: EntityType; types?: EntityType[]; aliases?: string[]; role?: 'speaker' }[];
  dates: { text: string; start: string; end: string }[];
}

/** Counts and the precision and recall they give. */
export interface Tally {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
}

/** The whole score, with every miss listed for reading. */
export interface ExtractionScore {
  names: Tally;
  byType: Record<EntityType, Tally>;
  speaker: Tally;
  dates: Tally;
  misses: string[];
}

const TYPES: readonly EntityType[] = ['person', 'place', 'organization', 'thing'];
const key = (name: string): string =>
  name
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/^the\s+/, '')
    .replace(/'s$/, '')
    .trim();

interface Counts {
  tp: number;
  fp: number;
  fn: number;
}
const tally = ({ tp, fp, fn }: Counts): Tally => ({
  truePositives: tp,
  falsePositives: fp,
  falseNegatives: fn,
  precision: tp + fp === 0 ? 1 : tp / (tp + fp),
  recall: tp + fn === 0 ? 1 : tp / (tp + fn),
});

/** Scores `extract` on `sample`. */
export function scoreExtraction(
  sample: readonly LabelledMemory[],
  extract: (input: ExtractionInput) => Extraction,
): ExtractionScore {
  const names: Counts = { tp: 0, fp: 0, fn: 0 };
  const speaker: Counts = { tp: 0, fp: 0, fn: 0 };
  const dates: Counts = { tp: 0, fp: 0, fn: 0 };
  const byType = Object.fromEntries(TYPES.map((type) => [type, { tp: 0, fp: 0, fn: 0 }])) as Record<EntityType, Counts>;
  const misses: string[] = [];
  for (const item of sample) {
    const got = extract({ text: item.text, speaker: item.speaker, occurredAt: item.occurredAt });
    const want = item.entities.map((e) => ({ ...e, keys: [e.name, ...(e.aliases ?? [])].map(key), types: e.types ?? [e.type] }));
    const named = new Set<number>();
    const typed = new Set<number>();
    for (const entity of got.entities) {
      const keys = [entity.name, ...(entity.aliases ?? [])].map(key);
      const matches = (j: number): boolean => want[j]!.keys.some((k) => keys.includes(k));
      const i = want.findIndex((_, j) => !named.has(j) && matches(j));
      if (i >= 0) {
        named.add(i);
        names.tp++;
      } else {
        names.fp++;
        misses.push(`${item.id} extra ${entity.type} "${entity.name}"`);
      }
      const t = want.findIndex((w, j) => !typed.has(j) && matches(j) && w.types.includes(entity.type));
      if (t >= 0) {
        typed.add(t);
        byType[want[t]!.type].tp++;
      } else {
        byType[entity.type].fp++;
        if (i >= 0) misses.push(`${item.id} typed "${entity.name}" ${entity.type}, want ${want[i]!.types.join('|')}`);
      }
    }
    want.forEach((w, j) => {
      if (!named.has(j)) {
        names.fn++;
        misses.push(`${item.id} missed ${w.type} "${w.name}"`);
      }
      if (!typed.has(j)) byType[w.type].fn++;
    });
    const wantSpeaker = want.find((w) => w.role === 'speaker');
    const gotSpeaker = got.entities.find((e) => e.role === 'speaker');
    if (gotSpeaker && wantSpeaker?.keys.includes(key(gotSpeaker.name))) speaker.tp++;
    else {
      if (gotSpeaker) speaker.fp++;
      if (wantSpeaker) speaker.fn++;
      if (gotSpeaker || wantSpeaker)
        misses.push(`${item.id} speaker "${gotSpeaker?.name ?? ''}", want "${wantSpeaker?.name ?? ''}"`);
    }
    const dated = new Set<number>();
    for (const date of got.dates) {
      const i = item.dates.findIndex((d, j) => !dated.has(j) && d.start === date.start && d.end === date.end);
      if (i >= 0) {
        dated.add(i);
        dates.tp++;
      } else {
        dates.fp++;
        misses.push(`${item.id} extra date "${date.text}" ${date.start}..${date.end}`);
      }
    }
    item.dates.forEach((d, j) => {
      if (dated.has(j)) return;
      dates.fn++;
      misses.push(`${item.id} missed date "${d.text}" ${d.start}..${d.end}`);
    });
  }
  return {
    names: tally(names),
    byType: Object.fromEntries(TYPES.map((type) => [type, tally(byType[type])])) as Record<EntityType, Tally>,
    speaker: tally(speaker),
    dates: tally(dates),
    misses,
  };
}

/**
 * The shapes callers hand to Engram — a new memory, a change to one, an exported record — as
 * zod schemas, with the TypeScript types derived from them (STYLE.md 5). These are the edge:
 * once parsed, the rest of the code trusts the types.
 */
import { z } from 'zod';

import { KINDS, SOURCES, TIERS } from './memory.js';

/** Longest memory text accepted, in characters. Longer text belongs in a document store. */
export const MAX_TEXT_CHARS = 100_000;
/** Longest abstract, key, scope, tenant or tag, in characters. */
export const MAX_LABEL_CHARS = 1_000;

/** Seed 002 spells the tiers out; accept those spellings too. */
export const TIER_ALIASES: Record<string, string> = {
  must_remember: 'must',
  nice_to_have: 'nice',
};

const text = z
  .string({ error: 'text must be a string' })
  .transform((value) => value.trim())
  .refine((value) => value.length > 0, 'text is empty: give the memory some words')
  .refine((value) => value.length <= MAX_TEXT_CHARS, `text is longer than ${MAX_TEXT_CHARS} characters: store a summary instead`);

const label = (name: string) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .min(1, `${name} is empty`)
    .max(MAX_LABEL_CHARS, `${name} is longer than ${MAX_LABEL_CHARS} characters`);

const context = z
  .string({ error: 'context must be a string' })
  .max(MAX_TEXT_CHARS, `context is longer than ${MAX_TEXT_CHARS} characters`)
  .transform((value) => (value.trim() === '' ? null : value.trim()));

const kind = z.enum(KINDS, { error: `kind must be one of: ${KINDS.join(', ')}` });
const tier = z.preprocess(
  (value) => (typeof value === 'string' ? (TIER_ALIASES[value] ?? value) : value),
  z.enum(TIERS, { error: `tier must be one of: ${TIERS.join(', ')} (or must_remember, nice_to_have)` }),
);
const source = z.enum(SOURCES, { error: `source must be one of: ${SOURCES.join(', ')}` });
const trust = z
  .number({ error: 'trust must be a number' })
  .min(0, 'trust must be between 0 and 1')
  .max(1, 'trust must be between 0 and 1');
/** What a date field accepts, said after a value it refused. */
export const DATE_HINT = 'give an ISO 8601 date such as 2026-01-31 or 2026-01-31T09:00:00Z';

/** A refused date as a message shows it: text quoted, anything else as it prints. */
export function shownDate(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

const timestamp = (name: string) =>
  z.union([z.string(), z.date()], { error: `${name} must be an ISO-8601 date string` }).transform((value, ctx) => {
    const date = value instanceof Date ? value : new Date(value);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: `${name} is not a valid date: ${shownDate(value)}; ${DATE_HINT}` });
      return z.NEVER;
    }
    return date.toISOString();
  });
const tags = z.array(label('a tag'), { error: 'tags must be a list of strings' }).transform((values) => [...new Set(values)]);
const data = z.record(z.string(), z.unknown(), { error: 'data must be a JSON object' });

/** A new memory, as given to `remember`. Only `text` is required. */
export const MemoryInputSchema = z.strictObject({
  text: text.describe('What to remember'),
  kind: kind.optional().describe('@default "note"'),
  tier: tier.optional().describe('How important to keep. @default "unknown"'),
  scope: label('scope').optional().describe('e.g. "user:alice" or "project:x". @default "global"'),
  tenant: label('tenant').optional(),
  pinned: z.boolean({ error: 'pinned must be true or false' }).optional(),
  hardRule: z.boolean({ error: 'hardRule must be true or false' }).optional(),
  abstract: label('abstract').nullable().optional().describe('One sentence, for intrusive recall'),
  context: context.nullable().optional().describe('Text that situates the memory, indexed but never shown'),
  key: label('key').nullable().optional().describe('A keyed note: one live memory per scope and key'),
  sessionId: label('sessionId').nullable().optional(),
  source: source.optional(),
  trust: trust.optional().describe('In [0, 1]'),
  data: data.nullable().optional(),
  tags: tags.optional(),
  occurredAt: timestamp('occurredAt').optional().describe('An ISO-8601 date, e.g. 2026-01-31T09:00:00Z'),
  /** Id of a memory this one replaces; the old one is kept and marked superseded. */
  supersedes: label('supersedes')
    .optional()
    .describe('Id of a live memory this one replaces; the old one is kept, marked superseded'),
});
export type MemoryInput = z.input<typeof MemoryInputSchema>;
export type ParsedMemoryInput = z.output<typeof MemoryInputSchema>;

/** A change to an existing memory, as given to `update`. */
export const MemoryPatchSchema = z.strictObject({
  text: text.optional(),
  kind: kind.optional(),
  tier: tier.optional(),
  scope: label('scope').optional(),
  pinned: z.boolean({ error: 'pinned must be true or false' }).optional(),
  hardRule: z.boolean({ error: 'hardRule must be true or false' }).optional(),
  abstract: label('abstract').nullable().optional(),
  context: context.nullable().optional(),
  key: label('key').nullable().optional(),
  sessionId: label('sessionId').nullable().optional(),
  source: source.optional(),
  trust: trust.optional(),
  data: data.nullable().optional(),
  tags: tags.optional(),
  occurredAt: timestamp('occurredAt').optional(),
});
export type MemoryPatch = z.input<typeof MemoryPatchSchema>;
export type ParsedMemoryPatch = z.output<typeof MemoryPatchSchema>;

/** A whole memory record, as written by `export` and read back by `import`. */
export const MemoryRecordSchema = z.strictObject({
  id: label('id'),
  tenant: label('tenant'),
  scope: label('scope'),
  kind,
  tier,
  pinned: z.boolean({ error: 'pinned must be true or false' }),
  hardRule: z.boolean({ error: 'hardRule must be true or false' }),
  text,
  abstract: label('abstract').nullable(),
  // Exports written before `context` existed have no such field.
  context: context.nullable().default(null),
  key: label('key').nullable(),
  sessionId: label('sessionId').nullable(),
  source,
  trust,
  data: data.nullable(),
  tags,
  occurredAt: timestamp('occurredAt'),
  createdAt: timestamp('createdAt'),
  updatedAt: timestamp('updatedAt'),
  supersededBy: label('supersededBy').nullable(),
  archivedAt: timestamp('archivedAt').nullable(),
  lastRetrievedAt: timestamp('lastRetrievedAt').nullable(),
  retrievalCount: z.number({ error: 'retrievalCount must be a number' }).int().min(0),
});

/** Turns zod's issues into one line a person can act on: `kind must be one of: … (at kind)`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : '';
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.join(', ');
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}${where ? ` in ${where}` : ''}`;
      }
      return where && !issue.message.startsWith(where) ? `${where}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

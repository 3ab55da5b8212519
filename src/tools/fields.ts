/**
 * Argument schemas the tools share, with messages written for a model: each says what was
 * wrong and what to send instead.
 */
import { z } from 'zod';

/** A required, non-empty string of at most `max` characters (trimmed). */
export function requiredText(name: string, max: number, hint: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required: ${hint}` : `${name} must be a string`) })
    .trim()
    .min(1, `${name} is empty: ${hint}`)
    .max(max, `${name} is longer than ${max} characters: shorten it`);
}

/** An optional choice among `values`. */
export function choice<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z.enum(values, { error: `${name} must be one of: ${values.join(', ')}` });
}

/** `text` cut to `max` characters, ending with "…" when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `text` on one line, cut to `max` characters: for activity-log summaries. */
export function summaryOf(text: string, max = 80): string {
  return clip(text.replace(/\s+/g, ' ').trim(), max);
}

/**
 * Reading what `scopes()` is given: an optional scope to count under, trimmed as a memory's
 * scope is on write. A bad value is an error that names it.
 */
import { z } from 'zod';

import { InvalidInputError } from '../errors.js';
import { describeMessages } from './describe-messages.js';

/** What `engram.scopes()` counts. */
export interface ScopesOptions {
  /** Only this scope and the scopes below it: `docs` holds `docs` and `docs:python`, not `docsets`. */
  under?: string;
}

const ScopesRequestSchema = z
  .object({
    under: z
      .string({ error: 'under must be a scope as text, e.g. "user:alice"' })
      .trim()
      .min(1, 'under must name a scope, e.g. "user:alice"')
      .optional(),
  })
  .strict();

/** The scope `options` counts under, or undefined for every scope. */
export function scopesUnder(options: ScopesOptions): string | undefined {
  const result = ScopesRequestSchema.safeParse(options);
  if (!result.success) throw new InvalidInputError(describeMessages(result.error));
  return result.data.under;
}

/**
 * The library's wording of a refused request: the schemas' own messages, which already name
 * the field and the value ("limit must be a whole number from 1 to 1000 (got 0)"), joined in
 * one line. The HTTP API words the same issues with their place in the body.
 */
import type { z } from 'zod';

import { describeIssues } from '../model/memory-input.js';

/** One line a caller can act on; unknown fields are named as `describeIssues` names them. */
export function describeMessages(error: z.ZodError): string {
  const known = error.issues.filter((issue) => issue.code !== 'unrecognized_keys');
  if (known.length < error.issues.length) return describeIssues(error);
  return known.map((issue) => issue.message).join('; ');
}

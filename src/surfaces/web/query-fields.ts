/**
 * The fields of the inspector's query strings, as zod schemas. A form sends every field, and
 * an empty one means "any", so empty values count as missing.
 */
import { z } from 'zod';

const emptyAsMissing = (value: unknown) => (value === '' ? undefined : value);

/** Optional text, trimmed, at most `max` characters. */
export const optionalText = (max: number) => z.preprocess(emptyAsMissing, z.string().trim().max(max).optional());

/** An optional position in a list. */
export const optionalOffset = z.preprocess(emptyAsMissing, z.coerce.number().int().min(0).max(1_000_000_000).optional());

/** An optional whole number of at least 1. */
export const optionalCount = z.preprocess(emptyAsMissing, z.coerce.number().int().min(1).optional());

/** One of `values`, or nothing. */
export const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(emptyAsMissing, z.enum(values).optional());

/** Checking a command's text arguments before anything is opened. */
import { InvalidInputError } from '../../index.js';

/**
 * A non-empty argument, or an error naming it with an example of one, in the command's own words
 * (the engine's message would name a library method or field).
 */
export function given(value: string, what: string, example: string): string {
  if (value.trim() === '') throw new InvalidInputError(`${what} is empty: give one, e.g. ${example}`);
  return value;
}

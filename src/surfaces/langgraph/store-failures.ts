/**
 * What the store does when Engram fails. A mistake in the call (a bad namespace, key, value or
 * filter) is thrown as it is: it says what to change. Engram's own failures are thrown with the
 * operation named and Engram's code kept — a closed engine says to open one and create a new
 * store. A search is recall: unless told to throw, a failing search (an unreadable database, a
 * failing embedder) logs one line and finds nothing, so the graph's turn goes on without it.
 */
import { EngramError, isEngramError } from '../../index.js';

/** Whether `error` is a mistake of the caller's, which only the caller can fix. */
export function isCallerMistake(error: unknown): boolean {
  if (error instanceof Error && error.name === 'InvalidNamespaceError') return true;
  return isEngramError(error) && error.code === 'invalid_input';
}

/** `error` as the store throws it from the operation `where` names. */
export function storeFailure(error: unknown, where: string): unknown {
  if (isCallerMistake(error) || !isEngramError(error)) return error;
  if (error.code === 'closed') {
    return new EngramError(
      'closed',
      `Engram store: cannot ${where}: the Engram engine it was given is closed. Open one with openEngram() and create a new EngramStore with it.`,
      { cause: error },
    );
  }
  return new EngramError(error.code, `Engram store: cannot ${where}: ${error.message}`, { cause: error });
}

/** Whether a failed search may go on without its results (a caller's mistake or a closed engine may not). */
export function searchMayGoOn(error: unknown): boolean {
  return !isCallerMistake(error) && !(isEngramError(error) && error.code === 'closed');
}

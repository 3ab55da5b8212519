/**
 * Standard input a command's caller already read: the hook's fast path reads the event before
 * it knows whether the resident process will answer, and hands it over when it does not.
 */
let prefetched: string | undefined;

/** Keeps `text` for the command that runs next. */
export function setPrefetchedInput(text: string): void {
  prefetched = text;
}

/** The kept text, once; undefined when nothing was read ahead. */
export function takePrefetchedInput(): string | undefined {
  const text = prefetched;
  prefetched = undefined;
  return text;
}

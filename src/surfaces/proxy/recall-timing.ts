/**
 * The proxy's `Server-Timing` header: what Engram spent before forwarding a request (`engram`)
 * and how much of that was waiting for a query's embedding (`engram-embed`), so a client can
 * tell Engram's own work from the model's. A request can wait for two embeddings: its own
 * active recall's, and an intrusive recall still running for the step before it — the nudge it
 * will carry is only ready when that recall is, and a client that sends its next request at
 * once waits for it.
 */
import type { AfterStep } from '../../index.js';

/** A model step handed to the session to count: when, and what counting it gave. */
export interface CountedStep {
  /** `performance.now()` when the step was handed over. */
  calledAt: number;
  result: Promise<AfterStep>;
}

/**
 * How much of the intrusive recall run for `step` this request, arriving at `arrivedAt`, spent
 * waiting for the query's embedding. The embedding began after the step was handed over, so at
 * most `arrivedAt − calledAt` of it was over before the request came: the rest was waited for.
 * Never more than the embedding took; 0 when no recall ran or it failed.
 */
export async function embeddingWaitedFor(step: CountedStep | undefined, arrivedAt: number): Promise<number> {
  if (step === undefined) return 0;
  const result = await step.result.catch(() => null);
  const embedMs = result?.receipt?.latencyMs.embed ?? 0;
  return Math.min(embedMs, Math.max(0, embedMs - (arrivedAt - step.calledAt)));
}

/** The header's value: milliseconds before forwarding, and of them, waiting for embeddings. */
export function serverTiming(engramMs: number, embedMs: number): string {
  return `engram;dur=${engramMs.toFixed(2)}, engram-embed;dur=${embedMs.toFixed(2)}`;
}

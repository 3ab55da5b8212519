/**
 * Engram's internal records: the one place that says which stored records are Engram's own
 * bookkeeping for a session's context rather than memories someone wrote to be found again.
 *
 * - `working_set`: the working set Engram synthesises per scope (seed 002's backbone lane,
 *   `working_set:<scope>`). It repeats other memories; nobody writes it.
 * - `handoff`: the handoff note one session leaves the next (seed 003, `write_session_handoff`),
 *   with every note it replaced kept as superseded.
 * - `scratchpad`: the current task's scratchpad (seed 003, `scratch_note`), archived when cleared.
 *
 * Each has its own section in a session's context, its own command (`engram handoff`,
 * `engram scratch`) and its own inspector page (Working set, Handoff & scratchpad). Lists,
 * search and the counts by kind, tier and scope leave them out unless asked: `internal: true`
 * (`--internal` on the CLI, `internal=true` on the HTTP API, a filter in the inspector), or a
 * `kinds` filter that names them.
 */
import type { Kind } from './memory.js';

/** The kinds of Engram's internal records (see the module comment). */
export const INTERNAL_KINDS = ['working_set', 'handoff', 'scratchpad'] as const satisfies readonly Kind[];

/** Whether records of `kind` are Engram's internal bookkeeping. */
export function isInternalKind(kind: Kind): boolean {
  return (INTERNAL_KINDS as readonly Kind[]).includes(kind);
}

/**
 * The kinds a list, search or count leaves out: the internal ones, unless `internal` asks for
 * them or `kinds` chooses the kinds itself (naming an internal kind is asking for it).
 */
export function hiddenKinds(request: {
  kinds?: readonly Kind[] | undefined;
  internal?: boolean | undefined;
}): readonly Kind[] | undefined {
  return request.internal === true || request.kinds !== undefined ? undefined : INTERNAL_KINDS;
}

/**
 * Engram's internal records: the one place that says which stored records are Engram's own
 * bookkeeping for a session's context rather than memories someone wrote to be found again — the
 * working set per scope (`working_set`, seed 002's backbone lane; nobody writes it), the handoff
 * note (`handoff`, seed 003) and the task's scratchpad (`scratchpad`, seed 003). Lists, search
 * and counts leave them out unless `internal: true` asks for them or a `kinds` filter names them;
 * each has its own context section, command and inspector page (docs/cli.md#memories).
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

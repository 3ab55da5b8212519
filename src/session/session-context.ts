/**
 * Reading the sources of `session.context()`: the handoff note (the first found in the
 * session's scopes), the working set as it stands, the memories the last active recall
 * injected this turn, the scratchpad, and this session's thoughts.
 */
import { loadBackbone } from '../activation/backbone.js';
import { assembleContext, type AssembledContext } from '../context/assemble.js';
import type { Memory } from '../model/memory.js';
import type { SessionRecord } from '../model/session.js';
import { SCRATCHPAD_KEY, SESSION_HANDOFF_KEY } from '../tools/keys.js';
import { MAX_CONTEXT_THOUGHTS, type SessionDeps, type SessionIdentity } from './session-deps.js';

/** The ordered sections for the model, within the token budget. */
export interface SessionContext extends AssembledContext {
  sessionId: string;
  turn: number;
  /** Every section's text, in order, separated by blank lines. */
  text: string;
}

export async function loadSessionContext(
  deps: SessionDeps,
  session: SessionIdentity,
  record: SessionRecord,
): Promise<SessionContext> {
  const { store, tenant, config } = deps;
  const [handoff, backbone, recall, scratchpad, thoughts] = await Promise.all([
    firstByKey(deps, session.scopes, SESSION_HANDOFF_KEY),
    loadBackbone(store, {
      tenant,
      scopes: session.scopes,
      now: deps.clock.now(),
      workingSet: config.working_set.enabled,
      pinHardRules: false,
    }),
    record.lastRecall && record.lastRecall.turn === record.turn
      ? store.getMemories(tenant, record.lastRecall.memoryIds)
      : Promise.resolve([]),
    store.findByKey(tenant, session.scope, SCRATCHPAD_KEY),
    store.listMemories({ tenant, kinds: ['thought'], sessionId: session.id }, { limit: MAX_CONTEXT_THOUGHTS, order: 'newest' }),
  ]);
  const assembled = assembleContext(
    { handoff, workingSet: backbone.workingSet, recall, scratchpad, thoughts: thoughts.reverse() },
    config.context.max_tokens,
  );
  return {
    ...assembled,
    sessionId: session.id,
    turn: record.turn,
    text: assembled.sections.map((section) => section.text).join('\n\n'),
  };
}

async function firstByKey(deps: SessionDeps, scopes: readonly string[], key: string): Promise<Memory | null> {
  for (const scope of scopes) {
    const found = await deps.store.findByKey(deps.tenant, scope, key);
    if (found) return found;
  }
  return null;
}

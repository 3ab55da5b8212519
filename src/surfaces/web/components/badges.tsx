/** A memory's kind, tier and flags as small labels. */
import type { Memory } from '../../../index.js';

/** The memory's kind, tier and flags as badges. */
export function MemoryBadges(props: { memory: Memory }) {
  const { memory } = props;
  return (
    <>
      <span class="badge">{memory.kind}</span>
      <span class={`badge ${memory.tier === 'unknown' ? '' : memory.tier}`}>{memory.tier}</span>
      {memory.pinned && <span class="badge flag">pinned</span>}
      {memory.hardRule && <span class="badge flag">hard rule</span>}
      {memory.archivedAt && <span class="badge gone">archived</span>}
      {memory.supersededBy && <span class="badge gone">superseded</span>}
    </>
  );
}

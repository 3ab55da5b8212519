/** SQL selections the doctor's vector part runs as written on both backends. */

/** Vectors whose memory is gone. */
export const STRAY = `FROM memory_embeddings AS e WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.rowid = e.rowid)`;
/** Vectors filed under another tenant than their memory's. */
export const OTHER_TENANT = `FROM memory_embeddings e JOIN memories m ON m.rowid = e.rowid WHERE e.tenant <> m.tenant`;
/** Memories that should have a vector and have none (the working set is never found by meaning). */
export const WITHOUT_VECTOR = `FROM memories m WHERE m.kind <> 'working_set'
  AND NOT EXISTS (SELECT 1 FROM memory_embeddings e WHERE e.rowid = m.rowid)`;

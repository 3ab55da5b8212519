/**
 * The sample of a store that per-store calibration (store-calibration.ts) scores each query
 * against: SAMPLE_SIZE of the tenant's live memories (working sets, which repeat other memories,
 * left out) spread evenly over the whole store — the first ones in the store's `spread` order,
 * by the random part of their ids. The sample stands for the store's unrelated pairs, and the
 * newest memories do not: they are about what the agent is doing now, so a query about that
 * scored high against them and was shifted down as if it resembled the whole store. Ordered by
 * a ULID's random tail, the first SAMPLE_SIZE are a uniform sample of every age that a new
 * memory enters only where its tail falls (a bottom-k sample): one indexed read at any size,
 * the same for the same store whatever engine reads it. What scoring needs of each member — its
 * vector, its stemmed words, its mentions — is read once and kept until the store's change mark
 * moves (`MemoryReader.memoryChangeMark`, checked on every search: a pragma on SQLite, one row
 * on PostgreSQL; any write of a memory's record, vector or mentions, by this engine or another
 * process, moves it; a new memory may enter the sample, an archived one leave it); a query is
 * then scored against the sample in memory (256 dot products and set lookups). When the mark
 * moves, the sample is listed again, the members still in it whose record is unchanged — every
 * field their words, vector and mentions are made from, not only `updatedAt`, which an edit in
 * the same millisecond leaves as it was — are carried over, and only the others are read and
 * stemmed. Nothing outside clears it.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import { normalize } from '../embedding/embedder.js';
import type { Kind, Memory } from '../model/memory.js';
import type { GraphStore, MemoryFilter, MemoryReader, VectorSearch } from '../store/store.js';
import { stemSet } from './coverage.js';
import { SampleVectors } from './sample-dots.js';

/** Members of the sample at most. */
export const SAMPLE_SIZE = 256;
/** Characters of a member's text (and context) read for its words, as search reads them. */
const MAX_MEMBER_CHARS = 20_000;

/** What scoring a query against one member needs. */
export interface SampleMember {
  id: string;
  /** The member as read: a member whose record changed is read again. */
  updatedAt: string;
  /** The member's unit vector; null when it has none. */
  vector: Float32Array | null;
  /** Its stemmed words, and with its context's (null without context), as coverage reads them. */
  words: ReadonlySet<string>;
  withContext: ReadonlySet<string> | null;
  mentions: readonly { entityId: string; role: string }[];
}

/** A tenant's sample: all of a store smaller than SAMPLE_SIZE. */
export interface CalibrationSample {
  members: readonly SampleMember[];
  /**
   * The members' vectors, where each member's `vector` is a view (member i's at place i), for
   * scoring a query against all of them at once; without it each is scored on its own.
   */
  vectors?: SampleVectors | undefined;
}

/** The store parts the sample is read from. */
export type SampleReader = MemoryReader & VectorSearch & Pick<GraphStore, 'listMentionsInMemories'>;

/** Kinds the sample leaves out: a working set repeats other memories. */
const LEFT_OUT: readonly Kind[] = ['working_set'];

/**
 * Samples per tenant, each kept while the store's change mark stays the same: no memory has
 * arrived, changed or left since that may belong in it.
 */
export class CalibrationSamples {
  private readonly kept = new Map<string, { key: string; sample: Promise<CalibrationSample> }>();

  constructor(private readonly store: SampleReader) {}

  /** The tenant's sample, read again when its memories changed. */
  async sampleFor(tenant: string): Promise<CalibrationSample> {
    const key = await this.versionOf(tenant);
    const held = this.kept.get(tenant);
    if (held && held.key === key) return held.sample;
    const sample = this.read(tenant, held?.sample);
    this.kept.set(tenant, { key, sample });
    sample.catch(() => this.kept.delete(tenant));
    return sample;
  }

  private async versionOf(tenant: string): Promise<string> {
    return this.store.memoryChangeMark(tenant);
  }

  /** The tenant's memories spread over the store as a sample, carrying over the members of `previous` that are unchanged. */
  private async read(tenant: string, previous?: Promise<CalibrationSample>): Promise<CalibrationSample> {
    const memories = await this.store.listMemories(sampled(tenant), { limit: SAMPLE_SIZE, order: 'spread' });
    const carried = new Map<string, SampleMember>();
    const before = await previous?.catch(() => undefined);
    for (const member of before?.members ?? []) carried.set(member.id, member);
    const unchanged = (memory: Memory, member: SampleMember | undefined): member is SampleMember =>
      member !== undefined && sameRecord(madeFrom.get(member), memory);
    const fresh = memories.filter((memory) => !unchanged(memory, carried.get(memory.id))).map((memory) => memory.id);
    const [vectors, mentions] = await Promise.all([
      this.store.getVectors(tenant, fresh),
      this.store.listMentionsInMemories(tenant, fresh),
    ]);
    const byMemory = new Map<string, { entityId: string; role: string }[]>();
    for (const m of mentions) byMemory.set(m.memoryId, [...(byMemory.get(m.memoryId) ?? []), m]);
    // The members' unit vectors side by side in one buffer: scoring a query reads it straight through.
    const dims =
      vectors.values().next().value?.length ??
      [...carried.values()].find((member) => member.vector !== null)?.vector?.length ??
      0;
    const sampleVectors = new SampleVectors(dims, memories.length);
    const buffer = sampleVectors.vectors;
    const members = memories.map((memory, index): SampleMember => {
      const slot = buffer.subarray(index * dims, (index + 1) * dims);
      const kept = carried.get(memory.id);
      if (unchanged(memory, kept)) {
        if (kept.vector?.length !== dims) return remember({ ...kept, vector: null }, memory);
        slot.set(kept.vector);
        return remember({ ...kept, vector: slot }, memory);
      }
      const words = stemSet(memory.text, MAX_MEMBER_CHARS);
      let withContext: Set<string> | null = null;
      if (memory.context !== null) {
        withContext = stemSet(memory.context, MAX_MEMBER_CHARS);
        for (const word of words) withContext.add(word);
      }
      const vector = vectors.get(memory.id);
      if (vector?.length === dims) slot.set(vector);
      const member = {
        id: memory.id,
        updatedAt: memory.updatedAt,
        vector: vector?.length === dims ? normalize(slot) : null,
        words,
        withContext,
        mentions: byMemory.get(memory.id) ?? [],
      };
      return remember(member, memory);
    });
    return { members, vectors: sampleVectors };
  }
}

/** The fields of a memory a member is made from: its words (text, context), vector (text) and mentions (extraction also reads kind and time). */
type MadeFrom = Pick<Memory, 'updatedAt' | 'text' | 'context' | 'kind' | 'occurredAt'>;

/** What each member was made from, to tell on the next listing whether it can be carried over. */
const madeFrom = new WeakMap<SampleMember, MadeFrom>();

function remember(member: SampleMember, memory: Memory): SampleMember {
  const { updatedAt, text, context, kind, occurredAt } = memory;
  madeFrom.set(member, { updatedAt, text, context, kind, occurredAt });
  return member;
}

function sameRecord(made: MadeFrom | undefined, memory: Memory): boolean {
  return (
    made !== undefined &&
    made.updatedAt === memory.updatedAt &&
    made.text === memory.text &&
    made.context === memory.context &&
    made.kind === memory.kind &&
    made.occurredAt === memory.occurredAt
  );
}

function sampled(tenant: string): MemoryFilter {
  return { tenant, excludeKinds: LEFT_OUT };
}

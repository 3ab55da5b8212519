/**
 * The shape of what extraction finds in one memory: named entities with the role they play
 * in it, the dates it speaks of (resolved to calendar days), and the simple relations between
 * them. Plain data, independent of the store's graph tables; the facade maps it onto them.
 */

/** What kind of thing an entity is. */
export type EntityType = 'person' | 'place' | 'organization' | 'thing';

/** How a memory involves an entity: said by it (the speaker of a turn), or naming it. */
export type MentionRole = 'speaker' | 'mention';

/** A named entity found in a memory. */
export interface ExtractedEntity {
  /** The name as written: trimmed, possessive stripped, original case. */
  name: string;
  type: EntityType;
  role: MentionRole;
  /** Other spellings of the same entity in this memory (e.g. without a title). */
  aliases?: string[];
}

/** How wide a resolved date is. */
export type DateGrain = 'day' | 'week' | 'month' | 'quarter' | 'year' | 'range';

/** A date a memory speaks of, resolved against its `occurredAt` to an inclusive range of days. */
export interface ExtractedDate {
  /** The words that name it, e.g. "last week". */
  text: string;
  /** First day, `YYYY-MM-DD` (UTC calendar). */
  start: string;
  /** Last day, `YYYY-MM-DD`, inclusive; equal to `start` for a single day. */
  end: string;
  grain: DateGrain;
}

/** The one relation extraction produces: a turn's speaker talks about an entity the turn names. */
export const TALKS_ABOUT = 'talks_about' as const;

/**
 * A relation between two entities of the same memory. Only one kind is extracted: the speaker
 * of a turn talks about each entity the turn names. It is read off the turn directly, so it is
 * precise; richer relations (works_at, lives_in) need parsing this extractor does not attempt.
 */
export interface ExtractedRelation {
  type: typeof TALKS_ABOUT;
  /** The speaker's name. */
  from: string;
  /** The named entity's name. */
  to: string;
}

/** Everything extraction found in one memory. */
export interface Extraction {
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
  dates: ExtractedDate[];
}

/** What extraction reads from a memory. */
export interface ExtractionInput {
  text: string;
  /** The speaker of a conversation turn, when known; "user", "assistant" and similar roles are not names. */
  speaker?: string | undefined;
  /** When the memory happened: relative dates ("yesterday") are resolved against its UTC day. */
  occurredAt: Date | string;
}

/**
 * Deterministic synthetic memories for benchmarks: varied, realistic-length sentences of the
 * kinds agents store (decisions, preferences, facts, notes), all distinct so no cache or
 * de-duplication flatters the numbers.
 */
import type { MemoryInput } from 'engram';

export const PEOPLE = ['Alice', 'Bob', 'Carmen', 'Deepak', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Luca'];
export const TOPICS = [
  'the billing service',
  'the deploy pipeline',
  'the search index',
  'the mobile app',
  'the onboarding flow',
  'the data warehouse',
  'the auth gateway',
  'the payment retries',
  'the nightly backup',
  'the design system',
  'the customer export',
  'the rate limiter',
  'the staging cluster',
  'the invoice emails',
  'the feature flags',
];
export const CHOICES = [
  'PostgreSQL',
  'SQLite',
  'Redis',
  'Kafka',
  'a cron job',
  'a queue',
  'TypeScript',
  'Go',
  'feature flags',
  'a monorepo',
];
const REASONS = [
  'because it is simpler to operate',
  'since the team already knows it',
  'to keep latency under 50 ms',
  'after the outage in March',
  'so that audits stay easy',
  'because the budget is tight this quarter',
];
const PREFERENCES = ['short answers', 'bullet points', 'code before prose', 'examples in Python', 'British spelling', 'no emoji'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];

/** A small seeded generator (mulberry32), so every run builds the same memories. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct memory inputs. */
export function syntheticMemories(count: number, seed = 7): MemoryInput[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const out: MemoryInput[] = [];
  for (let i = 0; i < count; i++) {
    const person = pick(PEOPLE);
    const topic = pick(TOPICS);
    const ticket = `#${1000 + i}`;
    switch (i % 4) {
      case 0:
        out.push({
          kind: 'decision',
          tier: 'must',
          text: `We chose ${pick(CHOICES)} for ${topic} ${pick(REASONS)} (ticket ${ticket}).`,
        });
        break;
      case 1:
        out.push({
          kind: 'preference',
          tier: 'nice',
          scope: `user:${person.toLowerCase()}`,
          text: `${person} prefers ${pick(PREFERENCES)} when we discuss ${topic}; noted in ${ticket}.`,
        });
        break;
      case 2:
        out.push({
          kind: 'fact',
          tier: 'unknown',
          text: `${person} said on ${pick(DAYS)} that ${topic} was slow again, and that ${pick(CHOICES)} might help with item ${ticket}.`,
        });
        break;
      default:
        out.push({
          kind: 'note',
          tier: 'unknown',
          text: `Meeting note ${ticket}: ${person} and ${pick(PEOPLE)} reviewed ${topic}. They agreed to try ${pick(CHOICES)} ${pick(REASONS)}, to revisit it on ${pick(DAYS)}, and to write down what breaks first.`,
        });
    }
  }
  return out;
}

/** Memories per synthetic session (conversation), so recall can follow a conversation as on a real store. */
export const SESSION_TURNS = 20;

/** The memories in order, `turns` to a session (`session-0`, `session-1`, …). */
export function inSessions(memories: readonly MemoryInput[], turns = SESSION_TURNS): MemoryInput[] {
  return memories.map((memory, i) => ({ ...memory, sessionId: `session-${Math.floor(i / turns)}` }));
}

/** The topic words that choose a synthetic vector's cluster. */
export function topicOf(text: string): string {
  return `${TOPICS.find((topic) => text.includes(topic)) ?? ''}|${CHOICES.find((choice) => text.includes(choice)) ?? ''}`;
}

/** `count` questions about the synthetic memories' topics, choices and people. */
export function syntheticQueries(count: number): string[] {
  const random = seededRandom(99);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? `what did we decide about ${pick(TOPICS)} and ${pick(CHOICES)}`
      : `what does ${pick(PEOPLE)} prefer for ${pick(TOPICS)}`,
  );
}

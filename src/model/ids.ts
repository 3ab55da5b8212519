/**
 * Memory ids: ULIDs (26 characters of Crockford base32, time first), so ids sort by creation
 * time and stay short enough to type at the CLI.
 */
import type { Clock } from './clock.js';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Makes a new id. */
export type IdGenerator = () => string;

/**
 * A ULID generator reading time from `clock` and randomness from `random` (both injectable).
 * @default clock the system clock, random `Math.random`
 */
export function ulidGenerator(clock: Clock, random: () => number = Math.random): IdGenerator {
  return () => {
    let time = clock.now().getTime();
    let head = '';
    for (let i = 0; i < 10; i++) {
      head = ALPHABET.charAt(time % 32) + head;
      time = Math.floor(time / 32);
    }
    let tail = '';
    for (let i = 0; i < 16; i++) tail += ALPHABET.charAt(Math.floor(random() * 32));
    return head + tail;
  };
}

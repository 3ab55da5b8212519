import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { cachedStatement } from './statement-cache.js';

describe('cachedStatement', () => {
  it('compiles a statement once per connection and hands it back in its default modes', () => {
    const db = new Database(':memory:');
    const other = new Database(':memory:');
    try {
      const first = cachedStatement(db, 'SELECT 1 AS one');
      expect(first.pluck().get()).toBe(1);
      const again = cachedStatement(db, 'SELECT 1 AS one');
      expect(again).toBe(first);
      expect(again.get()).toEqual({ one: 1 }); // no longer plucked
      expect(cachedStatement(other, 'SELECT 1 AS one')).not.toBe(first);
    } finally {
      db.close();
      other.close();
    }
  });

  it('keeps a bounded number of statements, dropping the least recently used', () => {
    const db = new Database(':memory:');
    try {
      const oldest = cachedStatement(db, 'SELECT 0');
      const kept = cachedStatement(db, 'SELECT -1');
      for (let i = 1; i <= 255; i++) {
        cachedStatement(db, `SELECT ${i}`);
        if (i === 200) cachedStatement(db, 'SELECT -1'); // used again: stays
      }
      expect(cachedStatement(db, 'SELECT -1')).toBe(kept);
      expect(cachedStatement(db, 'SELECT 0')).not.toBe(oldest);
    } finally {
      db.close();
    }
  });
});

/**
 * The doctor's space check: how many bytes the file takes a memory, how much of it is free pages
 * a compaction would give back, and whether its pages are smaller than a new file's (compaction.ts);
 * `--repair` compacts. It is a notice, not a fault: free pages are reused by later writes.
 */
import type Database from 'better-sqlite3';

import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import { compact, fileSpace, PAGE_SIZE, worthCompacting } from './compaction.js';
import { countOf, hasTable, REPAIR_COMMAND } from './doctor-part.js';

const MB = 1e6;

/** What the file takes, a memory and in all, and what a compaction would give back. */
export function examineSpace(db: Database.Database): DoctorFinding {
  const space = fileSpace(db);
  const memories = hasTable(db, 'memories') ? countOf(db, `SELECT count(*) FROM memories`) : 0;
  const perMemory =
    memories === 0 ? '' : ` (${Math.round((space.fileBytes - space.freeBytes) / memories)} bytes a memory in use)`;
  const size = `the file takes ${(space.fileBytes / MB).toFixed(1)} MB${perMemory}`;
  if (!worthCompacting(space)) return { check: 'space', status: 'ok', message: size, fix: null };
  const parts = [
    space.freeBytes >= MB ? `${(space.freeBytes / MB).toFixed(1)} MB of it free pages left by deleted rows or an upgrade` : null,
    space.pageSize < PAGE_SIZE
      ? `in pages of ${space.pageSize / 1024} KiB, where ${PAGE_SIZE / 1024} KiB pages hold vectors closer`
      : null,
  ];
  return {
    check: 'space',
    status: 'notice',
    message: [size, ...parts.filter((part) => part !== null)].join(', '),
    fix: `${REPAIR_COMMAND} compacts the file (it needs about as much free disk as the file while it runs)`,
  };
}

/** Compacts the file when its free pages are worth it; outside any transaction. */
export function reclaimSpace(db: Database.Database): DoctorRepair[] {
  if (!worthCompacting(fileSpace(db))) return [];
  const { before, after } = compact(db);
  return [
    {
      check: 'space',
      message: `compacted the file from ${(before.fileBytes / MB).toFixed(1)} MB to ${(after.fileBytes / MB).toFixed(1)} MB${
        after.pageSize === before.pageSize ? '' : ` (pages of ${after.pageSize / 1024} KiB)`
      }`,
    },
  ];
}

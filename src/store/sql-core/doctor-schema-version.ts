/**
 * The doctor's answer about a schema version, alike on both databases: the current one, an older
 * one (Engram migrates it when it opens it; the repair does it now) or a newer one this Engram
 * cannot read (nothing else is checked, and nothing is touched). Each driver finds the version
 * its own way (../sqlite/doctor-schema.ts, ../postgres/doctor-schema.ts).
 */
import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import { REPAIR_COMMAND } from '../doctor-wording.js';

/** What the doctor found of the schema, and whether the other parts can read the tables. */
export interface Schema {
  finding: DoctorFinding;
  /** The schema version, or null when there is none to read. */
  version: number | null;
  /** Whether the other checks can read the tables. */
  readable: boolean;
}

/** A finding of the schema check. */
export function schemaFinding(status: DoctorFinding['status'], message: string, fix: string | null = null): DoctorFinding {
  return { check: 'schema', status, message, fix };
}

/** `version` against `latest`, this Engram's; `unchecked` says what was left unchecked of a newer one. */
export function schemaOfVersion(version: number, latest: number, unchecked: string): Schema {
  if (version > latest) {
    return {
      version,
      readable: false,
      finding: schemaFinding(
        'problem',
        `schema ${version}, written by a newer Engram (this one understands up to ${latest}); ${unchecked}`,
        'upgrade Engram to use this database',
      ),
    };
  }
  if (version < latest) {
    return {
      version,
      readable: true,
      finding: schemaFinding(
        'notice',
        `schema ${version}, older than this Engram's ${latest}: it is upgraded the next time Engram opens it`,
        `${REPAIR_COMMAND} upgrades it now`,
      ),
    };
  }
  return { version, readable: true, finding: schemaFinding('ok', `schema ${version}, the current one`) };
}

/** What the repair says after migrating from `from` to `to`. */
export function upgradedSchema(from: number, to: number): DoctorRepair {
  return { check: 'schema', message: `upgraded the schema from ${from} to ${to}` };
}

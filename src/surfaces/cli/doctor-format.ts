/**
 * `engram doctor`'s text: one line per finding (and per repair), status first, then a summary
 * line that says whether the database is healthy and what to run next.
 */
import type { DoctorCheck, DoctorFinding, DoctorRepair, DoctorReport } from '../../entries/maintenance.js';
import { oneLine } from './format.js';

const LABELS: Record<DoctorCheck, string> = {
  integrity: 'integrity',
  schema: 'schema',
  full_text: 'full-text',
  vectors: 'vectors',
  embedder: 'embedder',
  sessions: 'sessions',
  graph: 'graph',
  space: 'space',
};
const STATUS_WIDTH = 'repaired'.length;
const LABEL_WIDTH = Math.max(...Object.values(LABELS).map((label) => label.length));

/** `problem   full-text  3 memories missing from the full-text index — engram doctor --repair rebuilds the index` */
export function findingLine(finding: DoctorFinding): string {
  const fix = finding.status !== 'ok' && finding.fix ? ` — ${finding.fix}` : '';
  return line(finding.status, finding.check, `${oneLine(finding.message, 300)}${fix}`);
}

/** `repaired  vectors    removed vectors without a memory (2)` */
export function repairLine(repair: DoctorRepair): string {
  return line('repaired', repair.check, repair.message);
}

/** The closing line: healthy or not, and what to do next. */
export function summaryLine(report: DoctorReport): string {
  const where = `${report.path}${report.schemaVersion === null ? '' : ` (schema ${report.schemaVersion})`}`;
  const problems = report.findings.filter((finding) => finding.status === 'problem');
  const repaired =
    report.repairs.length > 0 ? `after ${report.repairs.length} ${report.repairs.length === 1 ? 'repair' : 'repairs'}, ` : '';
  if (problems.length === 0) return `healthy: ${repaired}${where} passes every check`;
  const count = `${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}`;
  const doctorCanFix = problems.some((finding) => finding.fix?.startsWith('engram doctor --repair'));
  const next = report.before === undefined && doctorCanFix ? ': run engram doctor --repair' : ': see the fixes above';
  return `${repaired}${count} in ${where}${next}`;
}

/** The whole report as lines of text. */
export function doctorText(report: DoctorReport): string {
  return [...report.repairs.map(repairLine), ...report.findings.map(findingLine), summaryLine(report)].join('\n');
}

function line(status: string, check: DoctorCheck, text: string): string {
  return `${status.padEnd(STATUS_WIDTH)}  ${LABELS[check].padEnd(LABEL_WIDTH)}  ${text}`;
}

/** The figures of one surface in the hostile-input section, and how a run adds to them. */

export interface SurfaceFigures {
  surface: 'http' | 'mcp' | 'cli' | 'import' | 'hook';
  /** Inputs sent: requests, messages, processes or JSONL lines. */
  inputs: number;
  accepted: number;
  refused: number;
  /** The process under test died (or, for one-shot commands, was killed by a signal). */
  crashes: number;
  /** HTTP 5xx, an MCP internal error, an exit code other than 0 or 1. */
  serverErrors: number;
  /** No answer within the time limit. */
  hangs: number;
  /** Refused inputs after which the database's data_version had moved. */
  refusedChanges: number;
  /** Errors not in Engram's shape: `{ error: { code, message } }`, an `engram:` line, an MCP error message. */
  badErrors: number;
  /** Answers holding a stack trace, an internal path or a Node internal. */
  leaks: number;
  /** Stored memories lost or changed without an accepted request asking for it. */
  storedChanged: number;
  /** The doctor's problems with the database afterwards. */
  doctorProblems: number;
  problems: string[];
}

export function emptyFigures(surface: SurfaceFigures['surface']): SurfaceFigures {
  return {
    surface,
    inputs: 0,
    accepted: 0,
    refused: 0,
    crashes: 0,
    serverErrors: 0,
    hangs: 0,
    refusedChanges: 0,
    badErrors: 0,
    leaks: 0,
    storedChanged: 0,
    doctorProblems: 0,
    problems: [],
  };
}

/** Counts a failure under `figure` and keeps its first examples for the report. */
export function recordProblem(
  figures: SurfaceFigures,
  figure: 'crashes' | 'serverErrors' | 'hangs' | 'refusedChanges' | 'badErrors' | 'leaks' | 'storedChanged' | 'doctorProblems',
  what: string,
): void {
  figures[figure]++;
  if (figures.problems.length < 25) figures.problems.push(`${figures.surface} ${figure}: ${what.slice(0, 400)}`);
}

/** The sum of every failure figure: the section passes when it is 0. */
export function failureCount(figures: SurfaceFigures): number {
  return (
    figures.crashes +
    figures.serverErrors +
    figures.hangs +
    figures.refusedChanges +
    figures.badErrors +
    figures.leaks +
    figures.storedChanged +
    figures.doctorProblems
  );
}

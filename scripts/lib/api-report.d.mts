// Types of api-report.mjs, for test/api-report.test.ts.

/** Where the report is kept, relative to the package root. */
export const REPORT_FILE: string;

/** The report's text for the package at `root`, whose dist/ must be built. */
export function buildApiReport(root: string): Promise<string>;

/** Null when the reports agree; otherwise what differs and how to accept the change. */
export function describeDifference(kept: string | null, built: string, shown?: string): string | null;

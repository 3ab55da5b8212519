/**
 * Reliability, hostile input: the seeded fuzzer over every surface, at the sizes the issue asks
 * for — HTTP routes (hostile-http.ts), MCP over stdio (hostile-mcp.ts), CLI arguments, JSON
 * Lines import and hook stdin (hostile-cli.ts). Each surface reports the same figures
 * (hostile-figures.ts), every one of which must be 0.
 */
import { fuzzOneShot } from './hostile-cli.js';
import type { SurfaceFigures } from './hostile-figures.js';
import { fuzzHttp } from './hostile-http.js';
import { fuzzMcpStdio } from './hostile-mcp.js';

/** ≥ 10,000 HTTP requests, ≥ 3,000 MCP messages, ≥ 1,000 CLI and import inputs, ≥ 1,000 hook events. */
export const FULL_HOSTILE_SIZES = {
  httpRequests: 10_000,
  mcpMessages: 3_000,
  cliRuns: 500,
  importLines: 500,
  hookEvents: 1_000,
} as const;

export interface HostileOptions {
  httpRequests: number;
  mcpMessages: number;
  cliRuns: number;
  importLines: number;
  hookEvents: number;
  seed?: number;
  log?: (line: string) => void;
}

export async function runHostileInput(options: HostileOptions): Promise<SurfaceFigures[]> {
  const { seed = 20260617, log = () => undefined } = options;
  const http = await fuzzHttp({ count: options.httpRequests, seed });
  log(`reliability hostile input: ${http.inputs} HTTP requests, ${http.refused} refused`);
  const mcp = await fuzzMcpStdio({ count: options.mcpMessages, seed: seed + 1 });
  log(`reliability hostile input: ${mcp.inputs} MCP messages, ${mcp.refused} refused`);
  const oneShot = await fuzzOneShot({
    cliCount: options.cliRuns,
    importLines: options.importLines,
    hookCount: options.hookEvents,
    seed: seed + 2,
  });
  log(`reliability hostile input: ${oneShot.map((surface) => `${surface.inputs} ${surface.surface}`).join(', ')}`);
  return [http, mcp, ...oneShot];
}

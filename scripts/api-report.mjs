// `npm run api-report`: writes api/engram-api.md, the exported names and declarations of every
// entry of the built package (scripts/lib/api-report.mjs). `--check` writes nothing and exits 1
// when the built package differs from the file (what test/api-report.test.ts runs); `--report
// FILE` compares with or writes another file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { buildApiReport, describeDifference, REPORT_FILE } from './lib/api-report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const reportAt = args.indexOf('--report');
const file = reportAt === -1 ? path.join(root, REPORT_FILE) : path.resolve(args[reportAt + 1] ?? '');
const shown = path.relative(root, file);

const report = await buildApiReport(root);
if (check) {
  const difference = describeDifference(existsSync(file) ? readFileSync(file, 'utf8') : null, report, shown);
  if (difference === null) process.stdout.write(`${shown} matches the built package\n`);
  else process.stderr.write(`${difference}\n`);
  process.exitCode = difference === null ? 0 : 1;
} else {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, report);
  process.stdout.write(`wrote ${shown}\n`);
}

/** What a failure quotes of a child's stderr (stderrTail): the error's own line, not Node's stack. */
import { describe, expect, it } from 'vitest';

import { stderrTail } from './processes.js';

describe('stderrTail', () => {
  it("quotes the line naming the error from Node's report of an uncaught one", () => {
    const report = [
      'node:internal/modules/cjs/loader:1228',
      '  throw err;',
      '  ^',
      '',
      "Error: Cannot find module '/engram/build/bench/reliability/worker.js'",
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
      '    at node:internal/main/run_main_module:28:49 {',
      "  code: 'MODULE_NOT_FOUND',",
      '  requireStack: []',
      '}',
      '',
      'Node.js v20.20.2',
      '',
    ].join('\n');
    expect(stderrTail(report)).toBe("Error: Cannot find module '/engram/build/bench/reliability/worker.js'");
  });

  it("quotes Engram's own error line and the last lines otherwise", () => {
    expect(stderrTail('starting\nengram: the database is locked by another process\n')).toBe(
      'engram: the database is locked by another process',
    );
    expect(stderrTail('one\ntwo\nthree\n')).toBe('one\ntwo\nthree');
    expect(stderrTail('')).toBe('(nothing on stderr)');
  });
});

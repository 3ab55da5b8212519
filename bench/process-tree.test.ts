import { type ChildProcess, spawn } from 'node:child_process';

import { afterEach, describe, expect, it } from 'vitest';

import { parseSmapsRollup, parseStat, type ProcessStat, sampleProcess, sampleProcessTree, treeOf } from './process-tree.js';

/** A /proc/<pid>/stat line (52 fields) with these values and zeros elsewhere. */
function statLine(pid: number, name: string, ppid: number, [utime, stime, cutime, cstime]: number[]): string {
  const after = Array.from({ length: 50 }, () => '0');
  after[0] = 'S';
  after[1] = String(ppid);
  after[11] = String(utime);
  after[12] = String(stime);
  after[13] = String(cutime);
  after[14] = String(cstime);
  return `${pid} (${name}) ${after.join(' ')}\n`;
}

describe('reading /proc', () => {
  it('reads a stat line whose command name holds spaces and parentheses', () => {
    expect(parseStat(statLine(4321, 'postgres: engram bench (idle)', 17, [120, 30, 400, 50]))).toEqual({
      pid: 4321,
      ppid: 17,
      ownTicks: 150,
      reapedTicks: 450,
    });
  });

  it('refuses a line that is not a stat line, saying what it got', () => {
    expect(() => parseStat('hello world')).toThrow(/not a \/proc\/<pid>\/stat line: hello world/);
  });

  it('reads smaps_rollup into bytes: RSS, PSS and the private pages, clean and dirty', () => {
    const rollup = [
      '562ae52c7000-7ffef0696000 ---p 00000000 00:00 0                          [rollup]',
      'Rss:                1688 kB',
      'Pss:                 258 kB',
      'Pss_Dirty:           112 kB',
      'Shared_Clean:       1536 kB',
      'Shared_Dirty:          0 kB',
      'Private_Clean:        40 kB',
      'Private_Dirty:       112 kB',
    ].join('\n');
    expect(parseSmapsRollup(rollup)).toEqual({ rssBytes: 1688 * 1024, pssBytes: 258 * 1024, privateBytes: 152 * 1024 });
    expect(() => parseSmapsRollup('Rss: 1 kB')).toThrow(/no Pss line/);
  });

  it('takes a process and everything below it, not its parent or its siblings', () => {
    const stat = (pid: number, ppid: number): ProcessStat => ({ pid, ppid, ownTicks: 0, reapedTicks: 0 });
    const all = [stat(1, 0), stat(10, 1), stat(11, 10), stat(12, 10), stat(13, 11), stat(20, 1), stat(21, 20)];
    expect(
      treeOf(all, 10)
        .map((s) => s.pid)
        .sort(),
    ).toEqual([10, 11, 12, 13]);
    expect(treeOf(all, 99)).toEqual([]);
  });
});

describe('sampling real processes', () => {
  let child: ChildProcess | null = null;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = null;
  });

  /**
   * A child that starts a grandchild burning `burnMs` of CPU, waits for it to exit (reaping it),
   * starts a second that sleeps, and says "ready": the reaped time is the child's to report.
   */
  async function startServerLike(burnMs: number): Promise<ChildProcess> {
    const burn = `const s=process.cpuUsage();while((process.cpuUsage(s).user+process.cpuUsage(s).system)/1000<${burnMs});`;
    const script = [
      "const { spawn, spawnSync } = require('node:child_process');",
      `spawnSync(process.execPath, ['-e', ${JSON.stringify(burn)}]);`,
      "const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      "process.on('exit', () => sleeper.kill('SIGKILL'));",
      "process.on('SIGTERM', () => process.exit(0));",
      "setTimeout(() => process.stdout.write('ready\\n'), 300);",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const started = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    child = started;
    await new Promise<void>((resolve, reject) => {
      started.stdout?.on('data', () => resolve());
      started.once('exit', (code) => reject(new Error(`the child exited with ${code}`)));
    });
    return started;
  }

  it("counts a server's children and the CPU time of those it reaped, which the process alone does not", async () => {
    const server = await startServerLike(600);
    const tree = sampleProcessTree(server.pid as number);
    const alone = sampleProcess(server.pid as number);
    expect(tree.processes).toBe(2);
    expect(tree.cpuSeconds).toBeGreaterThanOrEqual(0.6);
    expect(alone.processes).toBe(1);
    expect(alone.cpuSeconds).toBeLessThan(tree.cpuSeconds - 0.5);
    expect(tree.pssBytes).toBeGreaterThan(0);
    expect(tree.rssBytes).toBeGreaterThan(alone.rssBytes);
    expect(tree.privateBytes).toBeGreaterThan(alone.privateBytes);
  });

  it('counts the CPU time of a child that has exited and is not yet reaped (a zombie), whose memory is gone', async () => {
    // sh starts the burner, then becomes `sleep`, which never reaps it: the burner stays a zombie.
    const burn = `const s=process.cpuUsage();while((process.cpuUsage(s).user+process.cpuUsage(s).system)/1000<600);`;
    const started = spawn('sh', ['-c', `'${process.execPath}' -e '${burn}' & exec sleep 30`], { stdio: 'ignore' });
    child = started;
    const pid = started.pid as number;
    const zombie = async () => {
      for (let tries = 0; tries < 100; tries++) {
        const sample = sampleProcessTree(pid);
        if (sample.processes === 1 && sample.cpuSeconds >= 0.6) return sample;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return sampleProcessTree(pid);
    };
    const sample = await zombie();
    expect(sample.processes).toBe(1); // the zombie holds no memory to sum
    expect(sample.cpuSeconds).toBeGreaterThanOrEqual(0.6);
  });

  it('says so when there is no such process', () => {
    expect(() => sampleProcessTree(2 ** 22 + 7)).toThrow(/no process 4194311 on this machine/);
  });
});

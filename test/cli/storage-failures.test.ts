/**
 * When the file system says no: a database locked by another process past the busy timeout, a
 * read-only file, a read-only folder, a read-only file system and a full disk each give one
 * `engram:` line that says what is wrong and what to do, a non-zero exit, no stack trace — and
 * leave every memory as it was.
 *
 * Permissions do not stop root, so as root the read-only cases add the immutable attribute
 * (chattr +i), and the disk cases mount a small tmpfs. Where neither works (not root, no
 * chattr), the tests that need them are skipped, and say why.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openEngram } from '../../src/index.js';
import { send, startInProcess } from '../http/helpers.js';
import {
  checkDatabase,
  childEnv,
  copyDatabase,
  expectOneLineError,
  LEXICAL,
  makeTempDir,
  runCli,
  runJson,
  runOk,
  writeSyntheticJsonl,
} from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const IS_ROOT = process.getuid?.() === 0;
/** Without graph extraction: the tests are about the file, and a bulk import is faster without it. */
const ENV = { ...LEXICAL, ENGRAM_GRAPH__EXTRACT: 'false' };

/** Makes `target` read-only for this process: permissions, and for root the immutable attribute. */
function makeReadOnly(target: string, isFolder: boolean): void {
  chmodSync(target, isFolder ? 0o555 : 0o444);
  if (IS_ROOT) execFileSync('chattr', ['+i', target]);
}

function makeWritable(target: string, isFolder: boolean): void {
  if (IS_ROOT) execFileSync('chattr', ['-i', target]);
  chmodSync(target, isFolder ? 0o755 : 0o644);
}

/** Whether `makeReadOnly` really stops this process writing a file here. */
function readOnlyWorks(): boolean {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'engram-read-only-probe-'));
  const file = path.join(folder, 'probe');
  writeFileSync(file, 'x');
  try {
    makeReadOnly(file, false);
    try {
      closeSync(openSync(file, 'r+'));
      return false;
    } catch {
      return true; // refused: read-only works here
    } finally {
      makeWritable(file, false);
    }
  } catch {
    return false; // no chattr, or it is refused: read-only cannot be made here
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Whether this process can mount (and unmount) a tmpfs: root, with the capability. */
function tmpfsWorks(): boolean {
  if (!IS_ROOT) return false;
  const folder = mkdtempSync(path.join(os.tmpdir(), 'engram-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', folder], { stdio: 'ignore' });
    execFileSync('umount', [folder], { stdio: 'ignore' });
    return true;
  } catch {
    return false; // no permission to mount (a container without CAP_SYS_ADMIN)
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const READ_ONLY = readOnlyWorks();
const TMPFS = tmpfsWorks();

let dir: string;
let remove: () => void;
const run = () => ({ cwd: dir, env: ENV });
/** Two memories added by the CLI once; each test gets a copy of that file. */
let seeded: string;

beforeAll(async () => {
  ({ dir, remove } = makeTempDir());
  seeded = path.join(dir, 'seeded', 'engram.db');
  mkdirSync(path.dirname(seeded));
  await runOk(['add', 'We chose PostgreSQL for billing', '--db', seeded], run());
  await runOk(['add', 'Never deploy on Fridays', '--db', seeded], run());
});
afterAll(() => remove());

/** A database in its own folder, with two memories, closed (no write-ahead log left). */
function seededDatabase(name: string, folder = path.join(dir, name)): string {
  const db = path.join(folder, 'engram.db');
  copyDatabase(seeded, db);
  return db;
}

function memoryTexts(db: string, cwd = dir): Promise<string[]> {
  return runJson<{ text: string }[]>(['list', '--db', db], { cwd, env: ENV }).then((memories) =>
    memories.map((memory) => memory.text).sort(),
  );
}

const SEEDED_TEXTS = ['Never deploy on Fridays', 'We chose PostgreSQL for billing'];

/** The code of the error `openEngram` and one `remember` on `db` end with ('stored' when none). */
async function libraryWrite(db: string): Promise<unknown> {
  let engram: Awaited<ReturnType<typeof openEngram>> | undefined;
  try {
    engram = await openEngram({ path: db, embedder: null, config: { graph: { extract: false } } });
    await engram.remember('A memory the library cannot write');
    return 'stored';
  } catch (error) {
    return (error as { code?: unknown }).code;
  } finally {
    await engram?.close();
  }
}

/** The status and error code of one write through the HTTP API at `url`. */
async function postMemory(url: string): Promise<{ status: number; code: string | undefined }> {
  const reply = await send<{ error?: { code: string } }>(url, 'POST', '/v1/memories', {
    body: { text: 'A memory the API cannot write' },
  });
  return { status: reply.status, code: reply.body?.error?.code };
}

/** The same, through a server started on `db` (a file named engram.db) for this one write. */
async function httpWrite(db: string): Promise<{ status: number; code: string | undefined }> {
  const server = await startInProcess(path.dirname(db));
  try {
    return await postMemory(server.url);
  } finally {
    await server.close();
  }
}

describe('a database locked by another process', () => {
  /** Holds `BEGIN EXCLUSIVE` on a database until its standard input closes. */
  const LOCKER = `
    const Database = (await import('node:module')).createRequire(process.env.ENGRAM_ROOT + '/package.json')('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    process.stdin.resume();
    process.stdin.on('end', () => { db.exec('ROLLBACK'); db.close(); });
  `;

  it('refuses a write after the busy timeout in one line, still reads, and loses nothing', async () => {
    const db = seededDatabase('locked');
    const locker: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', LOCKER, db], {
      env: childEnv({ ENGRAM_ROOT: ROOT }),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const closed = once(locker, 'close');
    try {
      await once(locker.stdout as NodeJS.ReadableStream, 'data');

      const started = Date.now();
      const [refused, elsewhere] = await Promise.all([
        runCli(['add', 'This write waits for the lock', '--db', db], run()),
        libraryWrite(db), // in this process, so it waits while the command does
      ]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
      expect(elsewhere).toBe('database_locked');
      expectOneLineError(
        refused,
        /^engram: \S+engram\.db is locked by another process \(waited 5 s for it\); the database is unchanged: let that process finish or stop it, then try again$/,
      );
      // In WAL mode a writer's lock leaves readers alone, the doctor among them.
      expect(await memoryTexts(db)).toEqual(SEEDED_TEXTS);
      expect((await runJson<{ healthy: boolean }>(['doctor', '--db', db], run())).healthy).toBe(true);
    } finally {
      locker.stdin?.end();
      await closed;
    }
    expect(checkDatabase(db)).toEqual({ integrity: 'ok', memories: 2 });
    await runOk(['add', 'Written once the lock is gone', '--db', db], run());
    expect(checkDatabase(db).memories).toBe(3);
  }, 30_000);
});

describe.skipIf(!READ_ONLY)('a read-only file or folder (skipped: this user cannot make a file read-only here)', () => {
  it('refuses a write to a read-only file in one line, reads it, and leaves it as it was', async () => {
    const db = seededDatabase('read-only-file');
    const before = readFileSync(db);
    makeReadOnly(db, false);
    try {
      expectOneLineError(
        await runCli(['add', 'A memory that cannot be written', '--db', db], run()),
        /^engram: cannot write \S+engram\.db: the file is read-only; make it writable, or copy the database to a writable folder and point --db at the copy$/,
      );
      expectOneLineError(await runCli(['forget', '--hard', 'no-such-id', '--db', db], run()), /no memory with id/);
      expect(await libraryWrite(db)).toBe('database_read_only');
      expect(await httpWrite(db)).toEqual({ status: 503, code: 'database_read_only' });
      expect(await memoryTexts(db)).toEqual(SEEDED_TEXTS);
    } finally {
      makeWritable(db, false);
    }
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(checkDatabase(db)).toEqual({ integrity: 'ok', memories: 2 });
  });

  it('refuses a database in a read-only folder in one line, creates nothing, and leaves it as it was', async () => {
    const db = seededDatabase('read-only-folder');
    const source = seededDatabase('backup-source-elsewhere');
    const folder = path.dirname(db);
    const before = readFileSync(db);
    makeReadOnly(folder, true);
    try {
      const message = new RegExp(
        `^engram: cannot open \\S+: its folder ${folder} is read-only \\(SQLite keeps its write-ahead log beside the file\\); make it writable`,
      );
      expectOneLineError(await runCli(['add', 'A memory that cannot be written', '--db', db], run()), message);
      expectOneLineError(await runCli(['list', '--db', db], run()), message);
      // The doctor, too, says the folder is read-only, not that the file is damaged.
      expectOneLineError(await runCli(['doctor', '--db', db], run()), message);
      expect(await libraryWrite(db)).toBe('database_read_only');
      expectOneLineError(await runCli(['add', 'A new database', '--db', path.join(folder, 'new.db')], run()), message);
      expect(existsSync(path.join(folder, 'new.db'))).toBe(false);
      // A backup into the folder names the folder, and the fix is another folder, not another --db.
      expectOneLineError(
        await runCli(['backup', path.join(folder, 'copy.db'), '--db', source], run()),
        new RegExp(`^engram: cannot write \\S+copy\\.db: the folder ${folder} is read-only; choose a writable folder$`),
      );
      expect(readdirSync(folder)).toEqual(['engram.db']);
    } finally {
      makeWritable(folder, true);
    }
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(await memoryTexts(db)).toEqual(SEEDED_TEXTS);
  });
});

describe.skipIf(!TMPFS)(
  'a full disk and a read-only file system (skipped: mounting a tmpfs needs root with CAP_SYS_ADMIN)',
  () => {
    let mount: string;

    beforeAll(() => {
      mount = mkdtempSync(path.join(os.tmpdir(), 'engram-small-disk-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount]);
    });
    afterAll(() => {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    });

    /** Fills the disk until `leave` bytes are free (as far as whole blocks allow). */
    function fill(name: string, leave: number): string {
      const filler = path.join(mount, name);
      const { bavail, bsize } = statfsSync(mount);
      writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - leave)));
      return filler;
    }

    it('refuses an import and a write on a full disk in one line, and keeps every memory', async () => {
      const db = seededDatabase('full', path.join(mount, 'full'));
      const records = path.join(dir, 'records.jsonl');
      writeSyntheticJsonl(records, 2_000);
      const nearlyFull = fill('filler-1', 96 * 1024);

      const diskFull =
        /^engram: cannot write \S+engram\.db: the disk is full \(.* free\); the database is unchanged: free some space, then try again$/;
      expectOneLineError(await runCli(['import', records, '--db', db], run()), diskFull);
      expect(checkDatabase(db)).toEqual({ integrity: 'ok', memories: 2 });

      // A server that opened the database while there was room, as a long-running one has.
      const server = await startInProcess(path.dirname(db));
      const full = fill('filler-2', 0);
      try {
        expectOneLineError(await runCli(['add', 'One more memory', '--db', db], run()), diskFull);
        expect(await libraryWrite(db)).toBe('disk_full');
        expect(await postMemory(server.url)).toEqual({ status: 507, code: 'disk_full' });
      } finally {
        await server.close();
      }

      rmSync(full);
      rmSync(nearlyFull);
      expect(await memoryTexts(db)).toEqual(SEEDED_TEXTS);
      await runOk(['add', 'Written once there is room', '--db', db], run());
      expect((await runJson<{ healthy: boolean }>(['doctor', '--db', db], run())).healthy).toBe(true);
      rmSync(path.dirname(db), { recursive: true });
    }, 60_000);

    it('refuses a backup onto a full disk in one line and leaves no partial copy', async () => {
      const db = seededDatabase('backup-source');
      const filler = fill('filler-3', 16 * 1024);
      const target = path.join(mount, 'copy.db');

      expectOneLineError(
        await runCli(['backup', target, '--db', db], run()),
        /^engram: cannot write \S+copy\.db: the disk is full/,
      );
      expect(readdirSync(mount)).toEqual(['filler-3']);
      rmSync(filler);
      expect(checkDatabase(db)).toEqual({ integrity: 'ok', memories: 2 });
    });

    it('refuses a write on a read-only file system in one line, and reads it', async () => {
      const db = seededDatabase('read-only-fs', path.join(mount, 'read-only-fs'));
      execFileSync('mount', ['-o', 'remount,ro', mount]);
      try {
        expectOneLineError(
          await runCli(['add', 'A memory that cannot be written', '--db', db], run()),
          /^engram: cannot (write|open) \S+engram\.db: the file is read-only/,
        );
      } finally {
        execFileSync('mount', ['-o', 'remount,rw', mount]);
      }
      expect(checkDatabase(db)).toEqual({ integrity: 'ok', memories: 2 });
    });
  },
);

/**
 * The children of one section of the reliability benchmark, watched together. A child that
 * exits when it should not (before it is ready, or while it is running and nobody stopped it),
 * a child that is not ready in time, or a phase that passes its deadline fails the section at
 * once: every child is killed, the loads that start more children see `stopping` and end, and
 * every wait made through the supervisor rejects with one ChildFailure naming the child. No
 * wait on a child can outlast its exit or a deadline, and no process is left behind: not even
 * when the benchmark itself is stopped with SIGINT, SIGTERM or SIGHUP while a section runs.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import {
  ChildFailure,
  describeExit,
  type Finished,
  isAlive,
  killHard,
  READY_MS,
  type Running,
  serveArgs,
  type Served,
  servedAt,
  startCli,
  waitUntilReady,
} from './processes.js';

/** How a watched child may end without failing the section. */
export interface WatchOptions {
  /** Its exit is its answer (a one-shot `engram add`): exiting never fails the section. @default false */
  oneShot?: boolean;
  /** It stops on its own when its work is done: exit code 0 is not a failure. @default false */
  endsOnItsOwn?: boolean;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** The supervisors not yet closed, whose children a signal to this process must take along. */
const open = new Set<Supervisor>();
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Kills every open supervisor's children, then lets the signal end this process as it would have. */
function onSignal(signal: NodeJS.Signals): void {
  for (const supervisor of open) supervisor.killAll();
  for (const name of SIGNALS) process.off(name, onSignal);
  process.kill(process.pid, signal);
}

/** Watches the children of one section; see the module comment. */
export class Supervisor {
  private readonly children = new Set<Running>();
  /** Children being stopped on purpose (a planned kill): their exit is expected. */
  private readonly released = new Set<Running>();
  private readonly tasks = new Set<Promise<unknown>>();
  private readonly controller = new AbortController();
  private failure: ChildFailure | null = null;
  private rejectFailed: (failure: ChildFailure) => void = () => undefined;
  /** Rejects with the section's failure; never resolves. */
  private readonly failed = new Promise<never>((_, reject) => (this.rejectFailed = reject));
  private deadline: NodeJS.Timeout | undefined;
  private phase: string;

  /** `phase` names the section in messages until enter() names another. */
  constructor(phase: string, deadlineMs: number) {
    this.failed.catch(() => undefined); // a failure nobody is waiting on is read by throwIfFailed
    this.phase = phase;
    this.enter(phase, deadlineMs);
    if (open.size === 0) for (const name of SIGNALS) process.on(name, onSignal);
    open.add(this);
  }

  /** Whether the section has failed or closed: loads stop starting children. */
  get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  /** Aborted when the section fails or closes: for requests to a child (fetch). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Names the phase now running and gives it `deadlineMs` from now; when that passes, the section fails. */
  enter(phase: string, deadlineMs: number): void {
    this.phase = phase;
    clearTimeout(this.deadline);
    this.deadline = setTimeout(() => {
      const running = [...this.children].map((child) => child.name);
      const still = running.length > 0 ? `; still running: ${running.join(', ')}` : '';
      this.fail(`did not finish within ${seconds(deadlineMs)} s${still}`);
    }, deadlineMs);
  }

  /** Watches `running` from now on (see WatchOptions); a child watched while stopping is killed at once. */
  watch(running: Running, options: WatchOptions = {}): Running {
    this.children.add(running);
    if (this.stopping) running.child.kill('SIGKILL');
    void running.done.then(
      (finished) => this.exited(running, finished, options),
      (error: Error) => {
        this.children.delete(running);
        this.fail(`${running.name} could not start: ${error.message}`);
      },
    );
    return running;
  }

  private exited(running: Running, finished: Finished, options: WatchOptions): void {
    this.children.delete(running);
    const planned = this.released.delete(running);
    if (planned || this.stopping || options.oneShot) return;
    if (options.endsOnItsOwn && finished.code === 0) return;
    this.fail(describeExit(running, finished));
  }

  /** Waits until `running` prints `text` (see waitUntilReady); its exit or a missed deadline fails the section. */
  async waitUntilReady(running: Running, text: string, deadlineMs: number = READY_MS): Promise<void> {
    try {
      await this.guard(waitUntilReady(running, text, deadlineMs));
    } catch (error) {
      if (error instanceof ChildFailure) this.fail(error.message);
      throw this.failure ?? error;
    }
  }

  /** Starts `engram serve`, watched, and waits until it listens. */
  async startServe(file: string, env: NodeJS.ProcessEnv, readyMs: number = READY_MS): Promise<Served> {
    const running = this.watch(startCli(serveArgs(file), env));
    await this.waitUntilReady(running, '\n', readyMs);
    return servedAt(running);
  }

  /** `promise`, unless the section fails first: then its failure. */
  guard<T>(promise: Promise<T>): Promise<T> {
    return Promise.race([promise, this.failed]);
  }

  /** Waits `ms`, unless the section fails first. */
  sleep(ms: number): Promise<void> {
    return this.guard(sleep(ms, undefined, { signal: this.signal }));
  }

  /** Keeps `task` (a load that starts children) to be waited for by close(). */
  track<T>(task: Promise<T>): Promise<T> {
    this.tasks.add(task.catch(() => undefined));
    return task;
  }

  /** From now on, the exit of `running` is expected (it was asked to stop) and does not fail the section. */
  expectExit(running: Running): void {
    if (isAlive(running)) this.released.add(running);
  }

  /** Kills `running` on purpose (SIGKILL): its exit does not fail the section. */
  kill(running: Running): Promise<Finished> {
    this.expectExit(running);
    return killHard(running);
  }

  /** Throws the section's failure, if there was one that no wait has reported yet. */
  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /** Stops everything: kills every child still running and waits for them and for the loads to end. */
  async close(): Promise<void> {
    clearTimeout(this.deadline);
    this.controller.abort();
    if (open.delete(this) && open.size === 0) for (const name of SIGNALS) process.off(name, onSignal);
    for (const running of this.children) this.released.add(running);
    await Promise.allSettled([...this.children].map(killHard));
    await Promise.allSettled([...this.tasks]);
    // A load may have started a child just before it saw `stopping`: watch() killed it; wait for it too.
    while (this.children.size > 0) await Promise.allSettled([...this.children].map(killHard));
  }

  private fail(message: string): void {
    if (this.failure) return;
    clearTimeout(this.deadline);
    this.failure = new ChildFailure(`${this.phase}: ${message}`);
    this.rejectFailed(this.failure);
    this.controller.abort(this.failure);
    this.killAll();
  }

  /** Sends SIGKILL to every child still running, without waiting. */
  killAll(): void {
    for (const running of this.children) if (isAlive(running)) running.child.kill('SIGKILL');
  }
}

import { describe, expect, it } from 'vitest';

import { SessionQueue } from './session-queue.js';

/** A task that finishes when told to, noting when it starts and ends. */
function deferred(name: string, events: string[]) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      events.push(`start ${name}`);
      await done;
      events.push(`end ${name}`);
      return name;
    },
    finish: () => finish(),
  };
}

describe('SessionQueue', () => {
  it('runs the tasks of one session in order, one at a time', async () => {
    const events: string[] = [];
    const queue = new SessionQueue();
    const a = deferred('a', events);
    const b = deferred('b', events);
    const first = queue.run('s1', a.task);
    const second = queue.run('s1', b.task);
    await Promise.resolve();
    expect(events).toEqual(['start a']);
    a.finish();
    expect(await first).toBe('a');
    b.finish();
    expect(await second).toBe('b');
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('lets tasks of different sessions run side by side', async () => {
    const events: string[] = [];
    const queue = new SessionQueue();
    const a = deferred('a', events);
    const b = deferred('b', events);
    const first = queue.run('s1', a.task);
    const second = queue.run('s2', b.task);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['start a', 'start b']);
    b.finish();
    a.finish();
    await Promise.all([first, second]);
  });

  it('goes on after a failing task, passes its error to its caller, and forgets idle sessions', async () => {
    const queue = new SessionQueue();
    const failing = queue.run('s1', () => Promise.reject(new Error('disk gone')));
    const next = queue.run('s1', () => Promise.resolve('next'));
    await expect(failing).rejects.toThrow('disk gone');
    expect(await next).toBe('next');
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.size).toBe(0);
  });
});

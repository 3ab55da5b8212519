import { describe, expect, it } from 'vitest';

import type { RecallMessage } from '../context/format.js';
import { applyInsertions, ConversationRecall, type TurnLoopSession } from './conversation-recall.js';

/** A session that records its calls, recalls `recall:<message>` and nudges on every `nudgeEvery`-th step. */
function recordingSession(nudgeEvery = 2) {
  const calls: string[] = [];
  let steps = 0;
  const session: TurnLoopSession = {
    id: 'fake',
    beforeTurn: async (message) => {
      calls.push(`beforeTurn ${message}`);
      steps = 0;
      return { message: { role: 'system', content: `recall:${message}` }, receipt: null, memories: [], turn: 1 };
    },
    afterStep: async (step) => {
      calls.push(`afterStep ${step.toolCalls?.length ?? 0}`);
      steps = step.toolCalls?.length ? steps + 1 : 0;
      const due = steps > 0 && steps % nudgeEvery === 0;
      return {
        nudge: due ? { role: 'system', content: `nudge@${steps}` } : null,
        receipt: null,
        memories: [],
        toolOnlyTurns: steps,
      };
    },
  };
  return { session, calls };
}

const render = (messages: { role: string; text?: string }[], driver: ConversationRecall) =>
  driver
    .beforeCall(messages)
    .then(({ insertions }) =>
      applyInsertions(messages, insertions, (m: RecallMessage) => ({ role: m.role, text: m.content })).map(
        (m) => m.text ?? m.role,
      ),
    );

describe('ConversationRecall', () => {
  it('recalls once per new user message, at position 1 after the system prompt, in every call of the turn', async () => {
    const { session, calls } = recordingSession();
    const driver = new ConversationRecall(session);
    const turn = [
      { role: 'system', text: 'sys' },
      { role: 'user', text: 'hello' },
    ];

    expect(await render(turn, driver)).toEqual(['sys', 'recall:hello', 'hello']);
    await driver.afterCall({ toolCalls: [{}] });
    expect(await render([...turn, { role: 'assistant' }, { role: 'tool' }], driver)).toEqual([
      'sys',
      'recall:hello',
      'hello',
      'assistant',
      'tool',
    ]);
    expect(calls.filter((call) => call.startsWith('beforeTurn'))).toEqual(['beforeTurn hello']);
  });

  it('puts a due nudge after the tool results, and keeps it there for the rest of the turn only', async () => {
    const { session } = recordingSession(2);
    const driver = new ConversationRecall(session);
    const history: { role: string; text?: string }[] = [{ role: 'user', text: 'fix it' }];
    await driver.beforeCall(history);
    for (let step = 0; step < 2; step++) {
      await driver.afterCall({ toolCalls: [{}] });
      history.push({ role: 'assistant' }, { role: 'tool' });
      await driver.beforeCall(history);
    }
    const later = [...history, { role: 'assistant' }, { role: 'tool' }];

    expect(await render(later, driver)).toEqual([
      'recall:fix it',
      'fix it',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'nudge@2',
      'assistant',
      'tool',
    ]);
    // a new user message starts a new turn: a new block, no old nudge
    expect(await render([...later, { role: 'user', text: 'thanks' }], driver)).toEqual([
      'recall:thanks',
      'fix it',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'thanks',
    ]);
  });

  it('starts a turn without recall for a user message without text, and with none before any user message', async () => {
    const { session, calls } = recordingSession();
    const driver = new ConversationRecall(session);

    expect((await driver.beforeCall([{ role: 'system', text: 'sys' }])).insertions).toEqual([]);
    expect((await driver.beforeCall([{ role: 'user', text: '  ' }])).insertions).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('runs one call at a time, so two requests of one conversation start its turn once', async () => {
    const { session, calls } = recordingSession();
    const driver = new ConversationRecall(session);
    const messages = [{ role: 'user', text: 'same' }];

    await Promise.all([driver.beforeCall(messages), driver.beforeCall(messages)]);

    expect(calls).toEqual(['beforeTurn same']);
  });

  it('puts the recall block after a leading developer message, as after a system prompt', async () => {
    const { session } = recordingSession();
    const driver = new ConversationRecall(session);

    expect(
      await render(
        [
          { role: 'developer', text: 'dev' },
          { role: 'user', text: 'hello' },
        ],
        driver,
      ),
    ).toEqual(['dev', 'recall:hello', 'hello']);
  });

  /** A session whose writing is recorded and finishes when the test says. */
  function deferredSession() {
    const { session, calls } = recordingSession();
    let finishWrite = (_error?: Error) => undefined as void;
    const deferred: TurnLoopSession = {
      ...session,
      startTurn: async (message) => ({
        result: await session.beforeTurn(message),
        write: () => {
          calls.push('write started');
          return new Promise<void>((resolve, reject) => {
            finishWrite = (error) => (error ? reject(error) : resolve());
          });
        },
      }),
    };
    return { session: deferred, calls, finishWrite: (error?: Error) => finishWrite(error) };
  }

  const turnsOfTheLoop = async (count: number) => {
    for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('writes a turn after the call when asked: the result first, the next call once the writing is over', async () => {
    const { session, calls, finishWrite } = deferredSession();
    const driver = new ConversationRecall(session, { writesAfterCall: true });

    const prepared = await driver.beforeCall([{ role: 'user', text: 'hello' }]);
    expect(prepared.recall?.message?.content).toBe('recall:hello');
    // The model's call is under way: nothing is written while it runs.
    await turnsOfTheLoop(3);
    expect(calls).toEqual(['beforeTurn hello']);
    // Counting the call's step starts the writing; the step waits for it.
    const step = driver.afterCall({ toolCalls: [{}] });
    await turnsOfTheLoop(2);
    expect(calls).toEqual(['beforeTurn hello', 'write started']);
    finishWrite(new Error('disk full'));
    await expect(prepared.written).rejects.toThrow('disk full');
    await step;
    expect(calls).toEqual(['beforeTurn hello', 'write started', 'afterStep 1']);
  });

  it('writes a turn once the caller says the call is over, when no step is counted', async () => {
    const { session, calls, finishWrite } = deferredSession();
    const driver = new ConversationRecall(session, { writesAfterCall: true });

    const prepared = await driver.beforeCall([{ role: 'user', text: 'hello' }]);
    await turnsOfTheLoop(2);
    expect(calls).toEqual(['beforeTurn hello']);
    // e.g. the upstream answered with an error, which is not a model step
    prepared.callEnded();
    prepared.callEnded();
    await turnsOfTheLoop(1);
    expect(calls).toEqual(['beforeTurn hello', 'write started']);
    finishWrite();
    await expect(prepared.written).resolves.toBeUndefined();
  });

  it("lets a conversation's next request start the writing the call before it has not released", async () => {
    const { session, calls, finishWrite } = deferredSession();
    const driver = new ConversationRecall(session, { writesAfterCall: true });

    await driver.beforeCall([{ role: 'user', text: 'hello' }]);
    // A second request of the conversation while the first call still runs: it does not wait for that call.
    const second = driver.beforeCall([{ role: 'user', text: 'hello' }]);
    await turnsOfTheLoop(1);
    expect(calls).toEqual(['beforeTurn hello', 'write started']);
    finishWrite();
    expect((await second).insertions).toHaveLength(1);
    expect(calls).toEqual(['beforeTurn hello', 'write started']);
  });

  it('writes nothing for a call that failed', async () => {
    const { session, calls } = deferredSession();
    const driver = new ConversationRecall(session, { writesAfterCall: true });

    const prepared = await driver.beforeCall([{ role: 'user', text: 'hello' }]);
    // e.g. the model's server answered 500, or could not be reached: no model saw the recall
    prepared.callFailed();
    await turnsOfTheLoop(3);

    expect(calls).toEqual(['beforeTurn hello']);
  });

  it('holds the writing of a failed call until a retry of the same message succeeds', async () => {
    const { session, calls, finishWrite } = deferredSession();
    const driver = new ConversationRecall(session, { writesAfterCall: true });
    const messages = [{ role: 'user', text: 'hello' }];

    const first = await driver.beforeCall(messages);
    first.callFailed();
    const retry = await driver.beforeCall(messages);
    await turnsOfTheLoop(2);
    // The retry carries the same recall block, without running recall again, and nothing is written yet.
    expect(retry.insertions.map((insertion) => insertion.message.content)).toEqual(['recall:hello']);
    expect(calls).toEqual(['beforeTurn hello']);
    retry.callFailed();
    const again = await driver.beforeCall(messages);
    again.callEnded();
    await turnsOfTheLoop(1);
    expect(calls).toEqual(['beforeTurn hello', 'write started']);
    finishWrite();
    await expect(first.written).resolves.toBeUndefined();
  });

  it('drops the writing of a failed call when the next call brings a new user message', async () => {
    const { session, calls } = deferredSession();
    const driver = new ConversationRecall(session, { writesAfterCall: true });

    const failed = await driver.beforeCall([{ role: 'user', text: 'hello' }]);
    failed.callFailed();
    await driver.beforeCall([{ role: 'user', text: 'something else' }]);

    await expect(failed.written).resolves.toBeUndefined();
    expect(calls).toEqual(['beforeTurn hello', 'beforeTurn something else']);
  });

  it('writes before returning unless asked otherwise', async () => {
    const { session, calls } = recordingSession();
    const deferred: TurnLoopSession = {
      ...session,
      startTurn: async () => {
        throw new Error('not used without writesAfterCall');
      },
    };

    const prepared = await new ConversationRecall(deferred).beforeCall([{ role: 'user', text: 'hello' }]);

    await expect(prepared.written).resolves.toBeUndefined();
    expect(calls).toEqual(['beforeTurn hello']);
  });
});

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

  it('writes a turn after the call when asked: the result first, the next call once the writing is over', async () => {
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
    const driver = new ConversationRecall(deferred, { writesAfterCall: true });

    const prepared = await driver.beforeCall([{ role: 'user', text: 'hello' }]);
    expect(prepared.recall?.message?.content).toBe('recall:hello');
    // Returned before the writing began: the caller sends its request in this turn of the loop.
    expect(calls).toEqual(['beforeTurn hello']);
    const step = driver.afterCall({ toolCalls: [{}] });
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    // The writing runs; the step waits for it.
    expect(calls).toEqual(['beforeTurn hello', 'write started']);
    finishWrite(new Error('disk full'));
    await expect(prepared.written).rejects.toThrow('disk full');
    await step;
    expect(calls).toEqual(['beforeTurn hello', 'write started', 'afterStep 1']);
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

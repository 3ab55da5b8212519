/**
 * Engram as a LangGraph.js agent's long-term memory: `compile({ store: new EngramStore({ engram }) })`.
 * Run it with `npx tsx examples/langgraph-store.ts` (after `npm ci`).
 *
 *   const app = graph.compile({ store: new EngramStore({ engram }) });
 *   // in a node: await config.store.put(namespace, key, value); await config.store.search(namespace, { query });
 *
 * The graph is a small memory agent: `recall` searches the user's memories for the message (by
 * meaning, with Engram's search), `respond` answers from what it found (a template stands in for
 * the model), `remember` keeps what the user asked it to remember. Conversation 1 tells it two
 * things; conversation 2 runs on a new engine over the same file — a restarted program — and the
 * agent recalls the one that matters, best first. Last, the namespaces the store holds, and the
 * same memories as Engram's own search sees them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Annotation, END, type LangGraphRunnableConfig, START, StateGraph } from '@langchain/langgraph';

import { openEngram } from '../src/index.js';
import { EngramStore, scopeOfNamespace } from '../src/surfaces/langgraph/index.js';

const State = Annotation.Root({
  user: Annotation<string>,
  message: Annotation<string>,
  recalled: Annotation<{ text: string; score: number }[]>,
  answer: Annotation<string>,
});
type AgentState = typeof State.State;

/** The user's memories that bear on the message, best first. */
async function recall(state: AgentState, config: LangGraphRunnableConfig) {
  const found = (await config.store?.search(['memories', state.user], { query: state.message, limit: 2 })) ?? [];
  return { recalled: found.map((item) => ({ text: String(item.value.text), score: item.score ?? 0 })) };
}

/**
 * Stands in for the model: answers with the memories that bear on the message. A score is
 * Engram's calibrated relevance (in [0, 1]) times small recency and exact-match factors, so one
 * threshold serves every query.
 */
async function respond(state: AgentState) {
  const relevant = state.recalled.filter((memory) => memory.score >= 0.3);
  return { answer: relevant.length === 0 ? 'Noted.' : `Keeping in mind that ${relevant.map((memory) => memory.text).join(' ')}` };
}

/** Keeps "remember that …" as a memory, keyed by its first words (a model would choose the key). */
async function remember(state: AgentState, config: LangGraphRunnableConfig) {
  const fact = /^remember that (.+?)\.?$/i.exec(state.message)?.[1];
  if (fact) {
    const key = fact.split(' ').slice(0, 4).join('-').toLowerCase();
    await config.store?.put(['memories', state.user], key, { text: `${state.user} said: ${fact}.`, from: 'chat' });
  }
  return {};
}

const graph = new StateGraph(State)
  .addNode('recall', recall)
  .addNode('respond', respond)
  .addNode('remember', remember)
  .addEdge(START, 'recall')
  .addEdge('recall', 'respond')
  .addEdge('respond', 'remember')
  .addEdge('remember', END);

export async function main(directory = mkdtempSync(path.join(os.tmpdir(), 'engram-langgraph-'))): Promise<void> {
  const file = path.join(directory, 'engram.db');

  // Conversation 1: the user tells the agent two things to remember.
  let engram = await openEngram({ path: file });
  let app = graph.compile({ store: new EngramStore({ engram, index: { fields: ['text'] } }) });
  for (const message of ['Remember that I am allergic to peanuts.', 'Remember that my sister lives in Porto.']) {
    const turn = await app.invoke({ user: 'sam', message, recalled: [], answer: '' });
    console.log(`[conversation 1] user: ${message}\n[conversation 1] agent: ${turn.answer}`);
  }
  await engram.close();

  // Conversation 2: a new engine on the same file, as after a restart.
  engram = await openEngram({ path: file });
  const store = new EngramStore({ engram, index: { fields: ['text'] } });
  app = graph.compile({ store });
  const message = 'Can you suggest a snack for my flight? Mind my food allergies.';
  const turn = await app.invoke({ user: 'sam', message, recalled: [], answer: '' });
  console.log(`\n[conversation 2] user: ${message}`);
  console.log('[conversation 2] recalled, best first:');
  for (const memory of turn.recalled) console.log(`  ${memory.score.toFixed(2)}  ${memory.text}`);
  console.log(`[conversation 2] agent: ${turn.answer}`);

  console.log(`\n[store] namespaces: ${JSON.stringify(await store.listNamespaces())}`);
  const scope = scopeOfNamespace(['memories', 'sam']);
  const [hit] = await engram.search({ query: 'where does the sister live?', scopes: [scope] });
  console.log(`[engram] scope ${scope}, engram.search finds: ${hit?.memory.text ?? 'nothing'}`);
  await engram.close();
  rmSync(directory, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

/**
 * `streamText` through the middleware: the same as `generate.ts`, part by part. Memory tool
 * calls are run as they arrive and their results streamed after them; when a step called only
 * memory tools, the next model call's parts follow in the same stream, with one finish at the end.
 */
import { markExecuted, runMemoryToolCall } from './memory-tools.js';
import { normalizeMemoryToolParts } from './prompt.js';
import { isMemoryCall, type MiddlewareState, prepareCall } from './state.js';
import { addUsage, continuation } from './step.js';
import type {
  CallOptions,
  LanguageModel,
  Prompt,
  StreamPart,
  StreamResult,
  ToolCallContent,
  ToolResultContent,
  Usage,
} from './types.js';

type FinishPart = Extract<StreamPart, { type: 'finish' }>;

export async function streamWithMemory(state: MiddlewareState, model: LanguageModel, params: CallOptions): Promise<StreamResult> {
  const prompt = normalizeMemoryToolParts(params.prompt, state.toolNames);
  const first = await model.doStream(await prepareCall(state, params, prompt));
  const reading: Reading = { reader: null, cancelled: false };
  const stream = new ReadableStream<StreamPart>({
    start: (controller) => {
      pipeSteps({ state, model, params, prompt, first, reading, enqueue: (part) => controller.enqueue(part) }).then(
        () => {
          if (!reading.cancelled) controller.close();
        },
        (error: unknown) => {
          if (!reading.cancelled) controller.error(error);
        },
      );
    },
    // The consumer stopped reading: so does the model call under way, and no further one starts.
    cancel: async (reason: unknown) => {
      reading.cancelled = true;
      await reading.reader?.cancel(reason);
    },
  });
  return { ...first, stream };
}

/** The model call being read, so a cancelled stream can cancel it. */
interface Reading {
  reader: ReadableStreamDefaultReader<StreamPart> | null;
  cancelled: boolean;
}

interface Pipe {
  state: MiddlewareState;
  model: LanguageModel;
  params: CallOptions;
  prompt: Prompt;
  first: StreamResult;
  reading: Reading;
  enqueue: (part: StreamPart) => void;
}

async function pipeSteps({ state, model, params, prompt, first, reading, enqueue }: Pipe): Promise<void> {
  let current = first;
  let usage: Usage | null = null;
  for (let step = 1; ; step++) {
    if (reading.cancelled) return;
    reading.reader = current.stream.getReader();
    const taken = await pipeOneStep(state, params, reading.reader, enqueue, step === 1);
    if (reading.cancelled) return;
    await state.recall.afterCall({ assistantText: taken.text, toolCalls: taken.toolCalls });
    if (taken.finish) usage = usage ? addUsage(usage, taken.finish.usage) : taken.finish.usage;
    const stop = taken.calls.length === 0 || taken.hostCalls || step >= state.maxMemoryToolSteps;
    if (stop) {
      if (taken.finish) enqueue({ ...taken.finish, usage: usage ?? taken.finish.usage });
      return;
    }
    prompt = [...prompt, ...continuation(taken.text, taken.calls, taken.results)];
    current = await model.doStream(await prepareCall(state, params, prompt));
  }
}

interface StepTaken {
  text: string;
  toolCalls: ToolCallContent[];
  calls: ToolCallContent[];
  results: ToolResultContent[];
  hostCalls: boolean;
  finish: FinishPart | null;
}

/** Relays one model call's parts, running memory tool calls; holds back its finish part. */
async function pipeOneStep(
  state: MiddlewareState,
  params: CallOptions,
  reader: ReadableStreamDefaultReader<StreamPart>,
  enqueue: (part: StreamPart) => void,
  firstStep: boolean,
): Promise<StepTaken> {
  const taken: StepTaken = { text: '', toolCalls: [], calls: [], results: [], hostCalls: false, finish: null };
  const memoryInputs = new Set<string>();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const part = read.value;
    switch (part.type) {
      case 'stream-start':
        if (firstStep) enqueue(part);
        break;
      case 'text-delta':
        taken.text += part.delta;
        enqueue(part);
        break;
      case 'tool-input-start':
        if (state.toolNames.has(part.toolName) && !part.providerExecuted) {
          memoryInputs.add(part.id);
          enqueue({ ...part, providerExecuted: true, dynamic: true });
        } else enqueue(part);
        break;
      case 'tool-call':
        taken.toolCalls.push(part);
        if (isMemoryCall(state, part, params)) {
          enqueue(markExecuted(part));
          const answer = await runMemoryToolCall(state.tools, part);
          taken.calls.push(part);
          taken.results.push(answer);
          enqueue(answer);
        } else {
          if (!part.providerExecuted) taken.hostCalls = true;
          enqueue(part);
        }
        break;
      case 'finish':
        taken.finish = part;
        break;
      default:
        enqueue(part);
    }
  }
  return taken;
}

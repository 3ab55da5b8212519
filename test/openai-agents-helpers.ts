/**
 * A scripted model for the OpenAI Agents SDK: the SDK's `Model` interface, answering each call
 * with the next step of a script — real `function_call` output items, which the SDK's own runner
 * executes, or an assistant message — and recording every request it was sent.
 */
import type {
  AgentInputItem,
  AgentOutputItem,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
  StreamEventResponseCompleted,
} from '@openai/agents';
import { Usage } from '@openai/agents';

/** One step: tool calls (`{ name, args }`, args as an object or a raw string) or a final text. */
export type ScriptStep = { calls: { name: string; args: Record<string, unknown> | string }[] } | { text: string };

/** What the model was sent on one call: the instructions and the input items. */
export interface SeenRequest {
  instructions: string | undefined;
  input: AgentInputItem[];
}

let callIds = 0;

function outputOf(step: ScriptStep): AgentOutputItem[] {
  if ('text' in step) {
    return [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text }] }];
  }
  return step.calls.map((call) => ({
    type: 'function_call',
    callId: `call_${++callIds}`,
    name: call.name,
    arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args),
    status: 'completed',
  }));
}

/** A model that plays `script`, one step per call, and records each request in `seen`. */
export function scriptedModel(script: ScriptStep[]): { model: Model; seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const respond = (request: ModelRequest): ModelResponse => {
    const input = typeof request.input === 'string' ? [{ role: 'user' as const, content: request.input }] : request.input;
    seen.push({ instructions: request.systemInstructions, input: structuredClone(input) });
    const step = script[seen.length - 1];
    if (!step) throw new Error(`the script has no step ${seen.length}`);
    return { usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }), output: outputOf(step) };
  };
  const model: Model = {
    getResponse: async (request) => respond(request),
    async *getStreamedResponse(request): AsyncIterable<StreamEvent> {
      const response = respond(request);
      yield { type: 'response_started' };
      for (const item of response.output) {
        if (item.type === 'message' && item.role === 'assistant') {
          for (const part of item.content) if (part.type === 'output_text') yield { type: 'output_text_delta', delta: part.text };
        }
      }
      yield {
        type: 'response_done',
        response: {
          id: `resp_${seen.length}`,
          usage: { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 },
          // The SDK's stream type names the output items more narrowly than ModelResponse does.
          output: response.output as StreamEventResponseCompleted['response']['output'],
        },
      };
    },
  };
  return { model, seen };
}

/** The text of the system items of an input, in order. */
export function systemTexts(input: readonly AgentInputItem[]): string[] {
  return input.flatMap((item) => ('role' in item && item.role === 'system' ? [item.content] : []));
}

/** The tool outputs the model was given in an input, by call name, as text. */
export function toolOutputs(input: readonly AgentInputItem[]): { name: string; text: string }[] {
  return input.flatMap((item) => {
    if (!('type' in item) || item.type !== 'function_call_result') return [];
    const output = item.output;
    const text = typeof output === 'string' ? output : 'text' in output ? output.text : JSON.stringify(output);
    return [{ name: item.name, text }];
  });
}

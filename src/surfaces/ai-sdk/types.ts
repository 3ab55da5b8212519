/**
 * The AI SDK's language-model types (specification v3), derived from the `ai` package's
 * `LanguageModelMiddleware` so that `ai` is the only package Engram's types name.
 */
import type { LanguageModelMiddleware } from 'ai';

export type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
export type Prompt = CallOptions['prompt'];
export type PromptMessage = Prompt[number];
export type AssistantPart = Extract<PromptMessage, { role: 'assistant' }>['content'][number];
export type ToolMessagePart = Extract<PromptMessage, { role: 'tool' }>['content'][number];
export type FunctionTool = Extract<NonNullable<CallOptions['tools']>[number], { type: 'function' }>;
export type LanguageModel = Parameters<NonNullable<LanguageModelMiddleware['wrapGenerate']>>[0]['model'];
export type GenerateResult = Awaited<ReturnType<LanguageModel['doGenerate']>>;
export type StreamResult = Awaited<ReturnType<LanguageModel['doStream']>>;
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
export type Content = GenerateResult['content'][number];
export type ToolCallContent = Extract<Content, { type: 'tool-call' }>;
export type ToolResultContent = Extract<Content, { type: 'tool-result' }>;
export type Usage = GenerateResult['usage'];

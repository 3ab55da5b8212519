/**
 * Assembling what the agent reads (seed 003's order): the handoff note first, then the working
 * set, this turn's recall block, the scratchpad, and this session's thoughts — each section
 * left out when empty. Over the token budget, the least important goes first: the oldest
 * thoughts, then the lowest-ranked recalled memories, the scratchpad, the working set's items
 * from its end (hard rules last), and finally the handoff is shortened. Every cut is reported.
 */
import type { Memory } from '../model/memory.js';
import type { WorkingSet } from '../model/working-set.js';
import { formatHandoff, formatRecallBlock, formatScratchpad, formatThoughts, formatWorkingSet } from './format.js';
import { estimateTokens } from './tokens.js';

/** A handoff shortened below this many characters is dropped instead. */
const MIN_HANDOFF_CHARS = 40;

export const SECTION_NAMES = ['handoff', 'working_set', 'recall', 'scratchpad', 'thoughts'] as const;
export type SectionName = (typeof SECTION_NAMES)[number];

/** One section of the context. */
export interface ContextSection {
  name: SectionName;
  text: string;
  tokens: number;
  /** The memories the section shows. */
  memoryIds: string[];
}

/** What the budget cut, and how. */
export interface ContextTrim {
  section: SectionName;
  /** Memories left out (none when a text was only shortened). */
  memoryIds: string[];
  how: 'dropped' | 'shortened';
}

export interface AssembledContext {
  sections: ContextSection[];
  tokens: number;
  budget: number;
  trimmed: ContextTrim[];
}

/** What the sections are made from. */
export interface ContextSources {
  handoff: Memory | null;
  workingSet: WorkingSet | null;
  /** This turn's recalled memories, best first. */
  recall: readonly Memory[];
  scratchpad: Memory | null;
  /** This session's thoughts, oldest first. */
  thoughts: readonly Memory[];
}

export function assembleContext(sources: ContextSources, budget: number): AssembledContext {
  const state = {
    handoff: sources.handoff,
    items: [...(sources.workingSet?.items ?? [])],
    recall: [...sources.recall],
    scratchpad: sources.scratchpad,
    thoughts: [...sources.thoughts],
  };
  const trimmed: ContextTrim[] = [];
  let sections = build(state, sources.workingSet?.scope ?? '');
  while (total(sections) > budget) {
    const cut = trimOnce(state, total(sections) - budget);
    if (cut === null) break;
    trimmed.push(cut);
    sections = build(state, sources.workingSet?.scope ?? '');
  }
  return { sections, tokens: total(sections), budget, trimmed };
}

type State = {
  handoff: Memory | null;
  items: WorkingSet['items'];
  recall: Memory[];
  scratchpad: Memory | null;
  thoughts: Memory[];
};

function build(state: State, scope: string): ContextSection[] {
  const sections: ContextSection[] = [];
  const add = (name: SectionName, text: string | null, memories: readonly Memory[]) => {
    if (text) sections.push({ name, text, tokens: estimateTokens(text), memoryIds: memories.map((m) => m.id) });
  };
  if (state.handoff) add('handoff', formatHandoff(state.handoff), [state.handoff]);
  if (state.items.length > 0) {
    add(
      'working_set',
      formatWorkingSet({ scope, items: state.items }),
      state.items.map((item) => item.memory),
    );
  }
  add('recall', formatRecallBlock({ workingSet: null, pinned: [], memories: state.recall })?.content ?? null, state.recall);
  if (state.scratchpad) add('scratchpad', formatScratchpad(state.scratchpad), [state.scratchpad]);
  if (state.thoughts.length > 0) add('thoughts', formatThoughts(state.thoughts), state.thoughts);
  return sections;
}

/** Removes the least important piece; null when nothing is left to cut. */
function trimOnce(state: State, excessTokens: number): ContextTrim | null {
  const thought = state.thoughts.shift();
  if (thought) return { section: 'thoughts', memoryIds: [thought.id], how: 'dropped' };
  const recalled = state.recall.pop();
  if (recalled) return { section: 'recall', memoryIds: [recalled.id], how: 'dropped' };
  if (state.scratchpad) {
    const { id } = state.scratchpad;
    state.scratchpad = null;
    return { section: 'scratchpad', memoryIds: [id], how: 'dropped' };
  }
  // The working set loses its last items first; its hard rules go last of all.
  let index = state.items.findLastIndex((item) => item.role !== 'rule');
  if (index < 0) index = state.items.length - 1;
  const [item] = index >= 0 ? state.items.splice(index, 1) : [];
  if (item) return { section: 'working_set', memoryIds: [item.memory.id], how: 'dropped' };
  if (state.handoff) {
    const { id, text } = state.handoff;
    const keep = text.length - excessTokens * 4 - 1;
    // Shorten while that helps; a handoff that cannot shrink further goes.
    if (keep >= MIN_HANDOFF_CHARS && keep < text.length - 1) {
      state.handoff = { ...state.handoff, text: `${text.slice(0, keep)}…` };
      return { section: 'handoff', memoryIds: [], how: 'shortened' };
    }
    state.handoff = null;
    return { section: 'handoff', memoryIds: [id], how: 'dropped' };
  }
  return null;
}

function total(sections: readonly ContextSection[]): number {
  return sections.reduce((sum, section) => sum + section.tokens, 0);
}

/**
 * The text Engram indexes for an item, read from its value by field paths in LangGraph's syntax
 * (`title`, `metadata.title`, `chapters[*].content`, `authors[0]`, `notes[-1]`, `*`, `$` for the
 * whole value). A path that selects a string, number or boolean gives it as text; one that
 * selects an object or a list gives every string inside it, in order (field names and numbers
 * are not words to search by). The texts are joined by new lines; a value with none is indexed
 * by its key.
 */
import { MAX_TEXT_CHARS } from '../../entries/model.js';
import { InvalidInputError } from '../../index.js';

/** One step of a path: a field, an index into a list (negative from the end), or every member. */
type Step = { field: string } | { index: number } | { every: true };

/** A path as steps; `$` is no step at all. */
export type FieldPath = readonly Step[];

/** The paths indexed when neither the store nor the put names any: the whole value. */
export const WHOLE_VALUE: readonly FieldPath[] = [[]];

/** Reads LangGraph field paths; a path it cannot read is refused with the reason. */
export function parseFieldPaths(paths: unknown, where: string): FieldPath[] {
  if (!Array.isArray(paths) || paths.some((path) => typeof path !== 'string')) {
    throw new InvalidInputError(`${where} must be a list of field paths, e.g. ["title", "chapters[*].content"]`);
  }
  return (paths as string[]).map((path) => parseFieldPath(path, where));
}

function parseFieldPath(path: string, where: string): FieldPath {
  const refuse = (why: string): never => {
    throw new InvalidInputError(`${where}: cannot read the field path ${JSON.stringify(path)}: ${why}`);
  };
  if (path.trim() === '') refuse('it is empty (use "$" for the whole value)');
  if (path === '$') return [];
  const steps: Step[] = [];
  for (const part of path.split('.')) {
    const match = /^([^[\]{}]*)((?:\[[^\]]*\])*)$/.exec(part);
    if (!match) refuse('write fields as a.b, lists as a[0], a[-1] or a[*] (a {a,b} group is not supported: list its fields)');
    const [, field = '', brackets = ''] = match as RegExpExecArray;
    if (field === '' && brackets === '') refuse('a field name is empty');
    if (field === '*') steps.push({ every: true });
    else if (field !== '') steps.push({ field });
    for (const [, inside = ''] of brackets.matchAll(/\[([^\]]*)\]/g)) {
      if (inside === '*') steps.push({ every: true });
      else if (/^-?\d+$/.test(inside)) steps.push({ index: Number(inside) });
      else refuse(`[${inside}] is not a list index: use a whole number or *`);
    }
  }
  return steps;
}

/** The text to index for `value` by `paths`; the key when the value has no text there. */
export function itemText(value: Record<string, unknown>, paths: readonly FieldPath[], key: string): string {
  const texts = paths.flatMap((path) => select(value, path, 0).flatMap(textsOf));
  const text = texts
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join('\n');
  return (text === '' ? key : text).slice(0, MAX_TEXT_CHARS);
}

function select(node: unknown, path: FieldPath, at: number): unknown[] {
  const step = path[at];
  if (step === undefined) return node === undefined ? [] : [node];
  if ('every' in step) {
    const members = Array.isArray(node) ? node : isObject(node) ? Object.values(node) : [];
    return members.flatMap((member) => select(member, path, at + 1));
  }
  if ('index' in step) {
    if (!Array.isArray(node)) return [];
    return select(node.at(step.index), path, at + 1);
  }
  return isObject(node) && Object.hasOwn(node, step.field) ? select(node[step.field], path, at + 1) : [];
}

/** A selected string, number or boolean as text; every string inside a selected object or list. */
function textsOf(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (typeof node === 'number' || typeof node === 'boolean') return [String(node)];
  return stringsIn(node);
}

function stringsIn(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(stringsIn);
  if (isObject(node)) return Object.values(node).flatMap(stringsIn);
  return [];
}

function isObject(node: unknown): node is Record<string, unknown> {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

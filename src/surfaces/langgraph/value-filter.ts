/**
 * `search`'s `filter`, as LangGraph's stores read it: each entry names a top-level field of the
 * value and either a value it must equal or operators — `$eq`, `$ne`, `$gt`, `$gte`, `$lt`,
 * `$lte`, `$in`, `$nin` — all of which must hold. Comparisons take both sides as numbers, as
 * LangGraph's InMemoryStore does. Equality is equality of JSON values, so an object or a list
 * matches an equal one (InMemoryStore compares references, which a stored value never shares).
 */
import { isDeepStrictEqual } from 'node:util';

import { InvalidInputError } from '../../index.js';

const OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin'] as const;
type Operator = (typeof OPERATORS)[number];

/** A checked filter: one test per field. */
export type ValueFilter = readonly { field: string; test: (value: unknown) => boolean }[];

/** Reads a filter; an unknown operator or a list operator without a list is refused, naming it. */
export function parseValueFilter(filter: unknown): ValueFilter {
  if (filter === undefined || filter === null) return [];
  if (typeof filter !== 'object' || Array.isArray(filter)) {
    throw new InvalidInputError('a search filter is an object of field values, e.g. { status: "active", score: { $gt: 4 } }');
  }
  return Object.entries(filter).map(([field, expected]) => ({ field, test: testFor(field, expected) }));
}

/** Whether `value` passes every test of `filter`. */
export function matchesFilter(value: Record<string, unknown>, filter: ValueFilter): boolean {
  return filter.every(({ field, test }) => test(Object.hasOwn(value, field) ? value[field] : undefined));
}

function testFor(field: string, expected: unknown): (value: unknown) => boolean {
  if (!isOperatorObject(expected)) return (value) => sameValue(value, expected);
  const tests = Object.entries(expected).map(([operator, operand]) => operatorTest(field, operator, operand));
  return (value) => tests.every((test) => test(value));
}

/** An object whose keys all start with `$` holds operators; any other value is matched as is. */
function isOperatorObject(expected: unknown): expected is Record<string, unknown> {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) return false;
  const keys = Object.keys(expected);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

function operatorTest(field: string, operator: string, operand: unknown): (value: unknown) => boolean {
  if (!(OPERATORS as readonly string[]).includes(operator)) {
    throw new InvalidInputError(`unknown filter operator ${operator} on ${field}: use one of ${OPERATORS.join(', ')}`);
  }
  switch (operator as Operator) {
    case '$eq':
      return (value) => sameValue(value, operand);
    case '$ne':
      return (value) => !sameValue(value, operand);
    case '$gt':
      return (value) => Number(value) > Number(operand);
    case '$gte':
      return (value) => Number(value) >= Number(operand);
    case '$lt':
      return (value) => Number(value) < Number(operand);
    case '$lte':
      return (value) => Number(value) <= Number(operand);
    case '$in': {
      const members = listOperand(field, operator, operand);
      return (value) => members.some((member) => sameValue(value, member));
    }
    case '$nin': {
      const members = listOperand(field, operator, operand);
      return (value) => !members.some((member) => sameValue(value, member));
    }
  }
}

function listOperand(field: string, operator: string, operand: unknown): readonly unknown[] {
  if (!Array.isArray(operand)) throw new InvalidInputError(`${operator} on ${field} takes a list of values, e.g. ["a", "b"]`);
  return operand;
}

function sameValue(value: unknown, expected: unknown): boolean {
  return value === expected || isDeepStrictEqual(value, expected);
}

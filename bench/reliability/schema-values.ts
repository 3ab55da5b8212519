/**
 * Values shaped by a JSON Schema (the OpenAPI document's request bodies, the MCP tools' input
 * schemas), mostly valid so the fuzzer gets past the first check and into the handlers, with
 * one field in a few made hostile: the wrong type, an out-of-range number, a nasty string, an
 * unknown key.
 */
import { hostileString, hostileValue } from './hostile-values.js';
import { between, pickOne, type Random } from './seeded.js';

/** The parts of a JSON Schema the generator reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** Words that make a valid string also a useful one (found by search, shared across calls). */
const WORDS = ['billing', 'deploy', 'Alice', 'Paris', 'retries', 'postgres', 'the CSV importer', 'global', 'user:alice'];

/**
 * A value for `schema`. `hostility` is the chance that any one field is replaced by a hostile
 * value instead of a valid one.
 */
export function valueForSchema(schema: JsonSchema | undefined, random: Random, hostility: number, depth = 0): unknown {
  if (!schema || depth > 4) return hostileValue(random, 1);
  if (random() < hostility) return hostileValue(random, 2);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && variants.length > 0) return valueForSchema(pickOne(random, variants), random, hostility, depth + 1);
  if (schema.enum && schema.enum.length > 0) return pickOne(random, schema.enum);
  const type = Array.isArray(schema.type) ? pickOne(random, schema.type) : schema.type;
  switch (type) {
    case 'string':
      return random() < 0.7 ? `${pickOne(random, WORDS)} ${between(random, 1, 99)}` : hostileString(random);
    case 'number':
    case 'integer':
      return between(random, schema.minimum ?? 0, Math.min(schema.maximum ?? 50, 1_000));
    case 'boolean':
      return random() < 0.5;
    case 'array': {
      const length = between(random, schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3));
      return Array.from({ length }, () => valueForSchema(schema.items, random, hostility, depth + 1));
    }
    case 'object':
    case undefined: {
      const object: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (required.has(key) || random() < 0.5) object[key] = valueForSchema(property, random, hostility, depth + 1);
      }
      if (random() < hostility) object[hostileString(random).slice(0, 30) || 'extra'] = hostileValue(random, 1);
      return object;
    }
    default:
      return hostileValue(random, 1);
  }
}

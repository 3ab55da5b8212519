/**
 * A route of the JSON API as data: method, path, the zod schemas of its body, query and
 * response, and a handler that gets the tenant's engine and the checked input. The same table
 * registers the routes and writes the OpenAPI document, so the two cannot disagree.
 */
import type { z } from 'zod';

import type { Engram } from '../../index.js';
import { ApiError } from './api-error.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** What a handler receives. */
export interface RouteInput<Body, Query> {
  /** The engine of the request's tenant. */
  engram: Engram;
  /** Path parameters, e.g. `{ id }` for `/v1/memories/:id`. */
  params: Record<string, string>;
  body: Body;
  query: Query;
}

/** One route. */
export interface ApiRoute<BodySchema extends z.ZodType = z.ZodType, QuerySchema extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Hono's syntax: `/v1/memories/:id`. */
  path: string;
  /** Groups routes in the OpenAPI document. */
  tag: string;
  summary: string;
  description?: string;
  /** The JSON body, if the route takes one. */
  body?: BodySchema;
  /** A route whose body may be left out entirely (it is then `{}`). @default false */
  bodyOptional?: boolean;
  query?: QuerySchema;
  /** The status of a success. @default 200 */
  status?: number;
  /** The body of a success. */
  response: z.ZodType;
  handle(input: RouteInput<z.output<BodySchema>, z.output<QuerySchema>>): Promise<unknown>;
}

/** A route with its types erased, as the route table holds it. */
export type AnyApiRoute = ApiRoute<z.ZodType, z.ZodType>;

/** Declares a route, with the handler's input typed from the schemas. */
export function defineRoute<BodySchema extends z.ZodType, QuerySchema extends z.ZodType>(
  route: ApiRoute<BodySchema, QuerySchema>,
): AnyApiRoute {
  return route as unknown as AnyApiRoute;
}

/** `value` checked against `schema`; an ApiError 400 naming every problem otherwise. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: 'body' | 'query'): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError(400, 'invalid_input', describeInputIssues(result.error, where), { cause: result.error });
}

/** zod's issues as one line: `body.limit: expected number, received string; unknown field foo in body`. */
export function describeInputIssues(error: z.ZodError, where: 'body' | 'query'): string {
  const noun = where === 'body' ? 'field' : 'query parameter';
  return error.issues
    .map((issue) => {
      const at = [where, ...issue.path.map(String)].join('.');
      if (issue.code === 'unrecognized_keys') {
        const inside = where === 'query' && issue.path.length === 0 ? '' : ` in ${at}`;
        return `unknown ${noun}${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}${inside}`;
      }
      if (issue.code === 'invalid_type' && issue.path.length === 0 && where === 'body') {
        return `the request body must be a JSON object`;
      }
      return `${at}: ${issue.message.replace(/^Invalid input: /, '')}`;
    })
    .join('; ');
}

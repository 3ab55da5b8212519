/**
 * Every link the inspector writes. Paths are fixed strings and every value from a memory or a
 * request goes through `encodeURIComponent` (a path segment) or `URLSearchParams` (a query), so
 * a stored value can neither leave the inspector's paths nor carry a `javascript:` scheme.
 */

/** Query values; empty, null and undefined ones are left out. */
export type QueryValues = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** `path` with the non-empty `query` values appended. */
export function withQuery(path: string, query: QueryValues = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The page of one memory. */
export function memoryHref(id: string): string {
  return `/memories/${encodeURIComponent(id)}`;
}

/** A form action on one memory: `edit`, `forget` or `restore`. */
export function memoryActionHref(id: string, action: 'edit' | 'forget' | 'restore'): string {
  return `${memoryHref(id)}/${action}`;
}

/** The page of one session: its turns. */
export function sessionHref(id: string): string {
  return `/sessions/${encodeURIComponent(id)}`;
}

/** The receipts of one turn of a session (all of them for the session when `turn` is omitted). */
export function receiptsHref(sessionId: string | null, turn?: number): string {
  return withQuery('/receipts', { session: sessionId, turn });
}

/** The page of one knowledge-graph entity. */
export function entityHref(name: string): string {
  return withQuery('/graph/entity', { name });
}

/**
 * Where to go after signing in: a path of this server only. Anything else — another host,
 * `//host`, a scheme — goes to the front page, so sign-in is never an open redirect.
 */
export function safeNextPath(next: string | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return /^[\x21-\x7e]*$/.test(next) ? next : '/';
}

/** Where a page of a list starts: after or before a row (a cursor), at a position, or at the top. */
export type PageLink = { after: string } | { before: string } | { offset: number } | { first: true };

/** The page of `path` that `link` leads to, keeping the other `query` values. */
export function pageHref(path: string, query: QueryValues, link: PageLink): string {
  const base = { ...query, after: undefined, before: undefined, offset: undefined };
  return withQuery(path, 'first' in link ? base : { ...base, ...link });
}

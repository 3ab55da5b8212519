/**
 * Cross-site request protection for the inspector's forms, in two independent layers: the
 * browser's own word on where a request comes from (`Sec-Fetch-Site`, `Origin`), and a
 * per-session token that a page of another site cannot read. A mutation passes only both.
 * Clients that send neither header (curl, scripts) still need the token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The headers of a request that say where it comes from. */
export interface RequestOrigin {
  /** The `Host` header: where the request was sent. */
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
}

/** The form field that carries the token. */
export const CSRF_FIELD = '_csrf';

/** Why a request is refused as cross-site, or null when its headers allow it. */
export function crossSiteReason({ host, origin, secFetchSite }: RequestOrigin): string | null {
  // 'none' is a request the user started (a bookmark, the address bar), never another site.
  if (secFetchSite !== undefined && secFetchSite !== 'same-origin' && secFetchSite !== 'none') {
    return `the browser says this request came from a ${secFetchSite} page`;
  }
  if (origin === undefined) return null;
  // An opaque origin ("null": sandboxed frames, some redirects) cannot be told apart from an attacker's.
  if (origin === 'null') return 'the request has an opaque origin';
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return 'the request has a malformed origin';
  }
  if (host === undefined || originHost.toLowerCase() !== host.toLowerCase()) {
    return `the request came from another site (${origin.slice(0, 100)})`;
  }
  return null;
}

/** Whether the token a form sent is the session's, compared in constant time. */
export function csrfTokenMatches(expected: string, presented: string | undefined | null): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  return timingSafeEqual(digest(expected), digest(presented));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * The inspector's session cookie: HttpOnly (no script can read it), SameSite=Strict (no other
 * site's page can make the browser send it), scoped to the path `/`, and named after the port,
 * because browsers share cookies between the ports of a host and two servers must not sign
 * each other's browsers out.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

import type { WebSession } from './web-sessions.js';

/** A cookie's name on this request's port: `prefix` and the port, e.g. `engram_inspector_7077`. */
export function portCookieName(prefix: string, requestUrl: string): string {
  const url = new URL(requestUrl);
  return `${prefix}_${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** The session cookie's name on this request's port. */
export function sessionCookieName(requestUrl: string): string {
  return portCookieName('engram_inspector', requestUrl);
}

/** The session id the browser sent, if any. */
export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, sessionCookieName(c.req.url));
}

/** Gives the browser `session`'s id; the cookie lives as long as the browser keeps it, the session as long as it is used. */
export function writeSessionCookie(c: Context, session: WebSession): void {
  setCookie(c, sessionCookieName(c.req.url), session.id, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure: new URL(c.req.url).protocol === 'https:',
  });
}

/** Removes the cookie (sign-out). */
export function clearSessionCookie(c: Context): void {
  deleteCookie(c, sessionCookieName(c.req.url), { path: '/' });
}

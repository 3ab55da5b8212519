/**
 * The sign-in form's cross-site token. Before sign-in there is no session to hold a CSRF token,
 * so the form's page gives the browser one random value twice — in a short-lived HttpOnly
 * cookie scoped to `/sign-in`, and in the form's hidden `_csrf` field — and a sign-in must
 * bring both back, equal ("double submit"). A page of another site can read neither, so it
 * cannot sign a browser in to the attacker's tenant (login CSRF), even in a browser that sends
 * none of the same-site headers `assertSameSite` checks first.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

import { csrfTokenMatches } from './csrf.js';
import { portCookieName } from './session-cookie.js';
import { randomToken } from './web-sessions.js';

/** How long a sign-in form stays usable. @default 1 hour */
export const SIGN_IN_TOKEN_SECONDS = 60 * 60;

const PATH = '/sign-in';

function cookieName(c: Context): string {
  return portCookieName('engram_sign_in', c.req.url);
}

/** A fresh token for a sign-in form: set in the browser's cookie, returned for the form's field. */
export function issueSignInToken(c: Context): string {
  const token = randomToken();
  setCookie(c, cookieName(c), token, {
    httpOnly: true,
    sameSite: 'Strict',
    path: PATH,
    maxAge: SIGN_IN_TOKEN_SECONDS,
    secure: new URL(c.req.url).protocol === 'https:',
  });
  return token;
}

/** Whether the form's token is the one in the browser's sign-in cookie, compared in constant time. */
export function signInTokenMatches(c: Context, presented: string | undefined): boolean {
  const expected = getCookie(c, cookieName(c));
  return expected !== undefined && csrfTokenMatches(expected, presented);
}

/** Removes the sign-in cookie once it has been used. */
export function clearSignInToken(c: Context): void {
  deleteCookie(c, cookieName(c), { path: PATH });
}

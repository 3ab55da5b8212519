/**
 * `GET /sign-in`, `POST /sign-in` and `POST /sign-out`. Signing in passes the cross-site checks
 * (the same-site headers, then the sign-in form's own token: `sign-in-token.ts`), checks the
 * token exactly as the API does (`TenantResolver`), then starts a fresh session bound to its
 * tenant — never the session the browser came with, so a planted cookie cannot be signed in by
 * its victim.
 */
import type { Hono } from 'hono';

import { ApiError } from '../../http/api-error.js';
import type { TenantResolver } from '../../http/auth.js';
import { CSRF_FIELD } from '../csrf.js';
import { safeNextPath } from '../links.js';
import { SignInPage } from '../pages/sign-in-page.js';
import { readForm } from '../read-form.js';
import { clearSessionCookie, readSessionCookie, writeSessionCookie } from '../session-cookie.js';
import { clearSignInToken, issueSignInToken, signInTokenMatches } from '../sign-in-token.js';
import { assertSameSite } from '../web-auth.js';
import type { WebEnv } from '../web-env.js';
import type { WebSessions } from '../web-sessions.js';

/** The routes that work before a session exists. */
export function registerSignIn(app: Hono<WebEnv>, options: { tenants: TenantResolver; sessions: WebSessions }): void {
  const { tenants, sessions } = options;
  app.get('/sign-in', (c) => {
    if (!tenants.requiresToken) return c.redirect('/', 303);
    const next = safeNextPath(c.req.query('next'));
    return c.html(<SignInPage next={next} error={null} csrfToken={issueSignInToken(c)} />);
  });
  app.post('/sign-in', async (c) => {
    if (!tenants.requiresToken) return c.redirect('/', 303);
    assertSameSite(c);
    const form = await readForm(c.req.raw);
    if (!signInTokenMatches(c, form.get(CSRF_FIELD))) {
      throw new ApiError(
        403,
        'forbidden',
        'refused: the sign-in form is missing its token or it has expired; open /sign-in again',
      );
    }
    const next = safeNextPath(form.get('next'));
    let tenant: string;
    try {
      tenant = tenants.tenantFor(`Bearer ${(form.get('token') ?? '').trim()}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const retry = issueSignInToken(c);
      return c.html(<SignInPage next={next} error="That token is not valid for this server." csrfToken={retry} />, 401);
    }
    clearSignInToken(c);
    const previous = readSessionCookie(c);
    if (previous) sessions.end(previous);
    writeSessionCookie(c, sessions.create(tenant));
    return c.redirect(next, 303);
  });
}

/** `POST /sign-out`, behind the session middleware (so it needs the CSRF token too). */
export function registerSignOut(app: Hono<WebEnv>, sessions: WebSessions): void {
  app.post('/sign-out', (c) => {
    sessions.end(c.get('web').session.id);
    clearSessionCookie(c);
    return c.redirect('/sign-in', 303);
  });
}

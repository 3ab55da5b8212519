/**
 * The inspector's authentication, the API's rules in a browser's shape. Without tokens (a
 * loopback-only server) every browser gets a session of the default tenant on its first page.
 * With tokens, a browser signs in once with a token (see `routes/sign-in.tsx`) and its session
 * is bound to that token's tenant; the token travels in one form post, never in a URL, a
 * cookie or a log line. Every mutation passes the cross-site checks of `csrf.ts` first.
 */
import type { Context, MiddlewareHandler } from 'hono';

import { ApiError } from '../http/api-error.js';
import type { TenantResolver } from '../http/auth.js';
import type { TenantEngines } from '../http/tenant-engines.js';
import { crossSiteReason, CSRF_FIELD, csrfTokenMatches } from './csrf.js';
import { withQuery } from './links.js';
import { readForm } from './read-form.js';
import { readSessionCookie, writeSessionCookie } from './session-cookie.js';
import type { WebEnv } from './web-env.js';
import type { WebSessions } from './web-sessions.js';

/** What the middleware checks against. */
export interface WebAuthOptions {
  engines: TenantEngines;
  tenants: TenantResolver;
  sessions: WebSessions;
}

/** Refuses a request that the browser says comes from another site (an ApiError 403). */
export function assertSameSite(c: Context): void {
  const reason = crossSiteReason({
    host: c.req.header('host'),
    origin: c.req.header('origin'),
    secFetchSite: c.req.header('sec-fetch-site'),
  });
  if (reason) throw new ApiError(403, 'forbidden', `refused: ${reason}; nothing was changed`);
}

/**
 * Gives each request its session, tenant and engine; sends a browser without a session to sign
 * in; and refuses any mutation without both same-site headers and the session's CSRF token.
 */
export function webSession(options: WebAuthOptions): MiddlewareHandler<WebEnv> {
  const { engines, tenants, sessions } = options;
  return async (c, next) => {
    const reading = c.req.method === 'GET' || c.req.method === 'HEAD';
    let session = sessions.find(readSessionCookie(c));
    if (!session) {
      if (tenants.requiresToken) {
        if (reading) return c.redirect(withQuery('/sign-in', { next: pathAndQuery(c.req.url) }), 303);
        throw new ApiError(401, 'unauthorized', 'sign in first: your session has ended; nothing was changed');
      }
      session = sessions.create(tenants.tenantFor(undefined));
      writeSessionCookie(c, session);
    }
    let form = null;
    if (!reading) {
      assertSameSite(c);
      form = await readForm(c.req.raw);
      if (!csrfTokenMatches(session.csrfToken, form.get(CSRF_FIELD))) {
        throw new ApiError(
          403,
          'forbidden',
          'refused: the form is missing its token or it has expired; reload the page and try again',
        );
      }
    }
    c.set('web', {
      session,
      engram: await engines.get(session.tenant),
      chrome: { tenant: session.tenant, csrfToken: session.csrfToken, signedIn: tenants.requiresToken, path: c.req.path },
      form,
    });
    return next();
  };
}

function pathAndQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

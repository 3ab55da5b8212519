/**
 * The web inspector as a Hono app, mounted at `/` by the HTTP server beside the API: security
 * headers on every page, sign-in for servers with tokens, a session (tenant, engine, CSRF
 * token) for every other route, and errors as pages rather than JSON.
 */
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

import { systemClock } from '../../entries/model.js';
import type { Clock } from '../../index.js';
import { errorResponse } from '../http/api-error.js';
import type { TenantResolver } from '../http/auth.js';
import type { TenantEngines } from '../http/tenant-engines.js';
import { ErrorPage } from './pages/error-page.js';
import { registerGraphRoutes } from './routes/graph.js';
import { registerMemoryRoutes } from './routes/memories.js';
import { registerNoteRoutes } from './routes/notes.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { registerSignIn, registerSignOut } from './routes/sign-in.js';
import { registerStatsRoutes } from './routes/stats.js';
import { CONTENT_SECURITY_POLICY } from './style.js';
import { webSession } from './web-auth.js';
import type { WebEnv } from './web-env.js';
import { WebSessions } from './web-sessions.js';

/** What the inspector is made of; the same engines and token rules as the API. */
export interface InspectorOptions {
  engines: TenantEngines;
  tenants: TenantResolver;
  /** Where unexpected errors go (the server log). */
  report: (error: unknown) => void;
  /** @default the system clock */
  clock?: Clock;
  /** Sign-in sessions; one set per server. @default new WebSessions */
  sessions?: WebSessions;
}

/** The paths the inspector answers: the server hands these, and only these, to it. */
export const INSPECTOR_PATHS = [
  '/',
  '/sign-in',
  '/sign-out',
  '/memories',
  '/memories/*',
  '/sessions',
  '/sessions/*',
  '/receipts',
  '/working-set',
  '/notes',
  '/activity',
  '/solutions',
  '/graph',
  '/graph/*',
  '/stats',
  '/favicon.ico',
] as const;

/** The inspector app; the HTTP server hands it the requests of `INSPECTOR_PATHS`. */
export function createInspectorApp(options: InspectorOptions): Hono<WebEnv> {
  const { engines, tenants, report } = options;
  const clock = options.clock ?? systemClock;
  const sessions = options.sessions ?? new WebSessions({ clock });
  const app = new Hono<WebEnv>();

  app.onError((error, c) => {
    const { status, body } = errorResponse(error, report);
    const chrome = c.get('web')?.chrome ?? null;
    return c.html(<ErrorPage status={status} message={body.error.message} chrome={chrome} />, status as ContentfulStatusCode);
  });
  app.notFound((c) => c.html(<ErrorPage status={404} message={`There is no page ${c.req.path}.`} chrome={null} />, 404));
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    // The server's own time for the page, for the browser's developer tools and the benchmark.
    c.header('Server-Timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
    c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('X-Frame-Options', 'DENY');
    // Not no-referrer: under it a browser sends `Origin: null` with a form, which the cross-site check must refuse.
    c.header('Referrer-Policy', 'same-origin');
    c.header('Cache-Control', 'no-store');
  });

  // No icon: answered before any session, so a browser's automatic request costs nothing.
  app.get('/favicon.ico', (c) => c.body(null, 204));
  registerSignIn(app, { tenants, sessions });
  app.use(webSession({ engines, tenants, sessions }));
  registerSignOut(app, sessions);
  registerMemoryRoutes(app);
  registerSessionRoutes(app);
  registerNoteRoutes(app);
  registerGraphRoutes(app);
  // The file is shared by every tenant on it: shown only when the server has one.
  registerStatsRoutes(app, { clock, showFile: tenants.tenants.length <= 1 });
  return app;
}

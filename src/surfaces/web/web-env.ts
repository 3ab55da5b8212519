/** What the inspector's middleware hands every page handler: the browser's session, tenant and engine. */
import type { Engram } from '../../index.js';
import type { PageChrome } from './layout.js';
import type { FormFields } from './read-form.js';
import type { WebSession } from './web-sessions.js';

/** One request, once its session is known. */
export interface WebRequest {
  session: WebSession;
  /** The engine of the session's tenant: every read and write of the page goes through it. */
  engram: Engram;
  chrome: PageChrome;
  /** A mutation's form, read and checked (CSRF) before the handler runs; null on GET. */
  form: FormFields | null;
}

/** Hono's environment of the inspector's routes. */
export type WebEnv = { Variables: { web: WebRequest } };

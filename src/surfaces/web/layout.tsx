/**
 * The page shell every inspector page shares: the stylesheet, the navigation, who is signed in,
 * and the sign-out button. Pages hand it their title and body; it never sees stored text
 * other than through JSX, which escapes it.
 */
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';

import { CsrfField } from './components/forms.js';
import { STYLESHEET } from './style.js';

/** What the shell needs to know about the request. */
export interface PageChrome {
  /** The tenant this browser is bound to. */
  tenant: string;
  /** The session's CSRF token, for every form on the page. */
  csrfToken: string;
  /** Whether this browser signed in with a token (and so can sign out). */
  signedIn: boolean;
  /** The request's path, to mark the current section. */
  path: string;
}

const SECTIONS: readonly { href: string; label: string }[] = [
  { href: '/memories', label: 'Memories' },
  { href: '/sessions', label: 'Sessions' },
  { href: '/receipts', label: 'Receipts' },
  { href: '/working-set', label: 'Working set' },
  { href: '/notes', label: 'Handoff & scratchpad' },
  { href: '/activity', label: 'Activity' },
  { href: '/solutions', label: 'Solutions' },
  { href: '/graph', label: 'Graph' },
  { href: '/stats', label: 'Stats' },
];

/** Whether `path` is in the section at `href`. */
function inSection(path: string, href: string): boolean {
  return path === href || path.startsWith(`${href}/`) || (href === '/memories' && path === '/');
}

/** A whole page: `chrome` null for pages outside a session (sign-in, some errors). */
export function Layout(props: { title: string; chrome: PageChrome | null; children?: Child }) {
  const { chrome } = props;
  return (
    <>
      {raw('<!DOCTYPE html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="referrer" content="same-origin" />
          <title>{`${props.title} · Engram inspector`}</title>
          <style>{raw(STYLESHEET)}</style>
        </head>
        <body>
          <header class="top">
            <a class="brand" href="/">
              Engram
            </a>
            {chrome && (
              <nav aria-label="sections">
                {SECTIONS.map((section) => (
                  <a href={section.href} class={inSection(chrome.path, section.href) ? 'current' : undefined}>
                    {section.label}
                  </a>
                ))}
              </nav>
            )}
            {chrome && (
              <div class="who">
                <span>
                  tenant <strong>{chrome.tenant}</strong>
                </span>
                {chrome.signedIn && (
                  <form class="inline" method="post" action="/sign-out">
                    <CsrfField token={chrome.csrfToken} />
                    <button class="link" type="submit">
                      Sign out
                    </button>
                  </form>
                )}
              </div>
            )}
          </header>
          <main>{props.children}</main>
        </body>
      </html>
    </>
  );
}

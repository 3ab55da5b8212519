/**
 * Shared by the inspector's tests: a browser-like HTTP client without a browser (a cookie jar,
 * forms, redirects left unfollowed) and the readers of what its pages say.
 */

/** One reply: status, headers and the page's text. */
export interface PageReply {
  status: number;
  headers: Headers;
  text: string;
}

/** Headers a browser would add to a form post. */
export interface FormHeaders {
  origin?: string;
  secFetchSite?: string;
}

/** A client that keeps the cookies a server sets, as a browser would (no redirects followed). */
export class InspectorClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  async get(path: string): Promise<PageReply> {
    return this.send(path, { method: 'GET' });
  }

  /** Posts `fields` as a URL-encoded form, with the headers a browser would add (same-origin by default). */
  async post(
    path: string,
    fields: Record<string, string>,
    headers: FormHeaders = { origin: this.base, secFetchSite: 'same-origin' },
  ) {
    const extra: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (headers.origin !== undefined) extra.origin = headers.origin;
    if (headers.secFetchSite !== undefined) extra['sec-fetch-site'] = headers.secFetchSite;
    return this.send(path, { method: 'POST', body: new URLSearchParams(fields).toString(), headers: extra });
  }

  private async send(
    path: string,
    init: { method: string; body?: string; headers?: Record<string, string> },
  ): Promise<PageReply> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.base}${path}`, {
      ...init,
      headers: { ...init.headers, ...(cookie ? { cookie } : {}) },
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = (pair ?? '').indexOf('=');
      const name = (pair ?? '').slice(0, at);
      const value = (pair ?? '').slice(at + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
}

/** The CSRF token a page's forms carry. */
export function csrfTokenIn(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('the page has no form with a CSRF token');
  return match[1] as string;
}

/**
 * The web inspector over a real port, without a browser: sessions and sign-in, the CSRF and
 * cross-site checks on every form, escaping of stored text, security headers, paging and
 * filters, and that the API beside it is unchanged. The browser tests (browser.test.ts) show
 * the same in Chromium.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { RunningHttpServer } from '../../src/surfaces/http/index.js';
import { makeTempDir } from '../cli/helpers.js';
import { expectApiError, send, startInProcess } from '../http/helpers.js';
import { csrfTokenIn, InspectorClient } from './helpers.js';

const SCRIPT = '<script>window.__xss = 1</script>';
const IMAGE = '<img src=x onerror="window.__xss = 2">';

/** Remembers a memory through the API and returns its id. */
async function remember(base: string, body: Record<string, unknown>, token?: string): Promise<string> {
  const reply = await send<{ memory: { id: string } }>(base, 'POST', '/v1/memories', { body, token });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.memory.id;
}

async function readMemory(base: string, id: string, token?: string) {
  return (await send<{ memory: Record<string, unknown> }>(base, 'GET', `/v1/memories/${id}`, { token })).body.memory;
}

/** Whether the browser holds an inspector session cookie (the sign-in form's own cookie is not one). */
function hasSession(browser: InspectorClient): boolean {
  return [...browser.cookies.keys()].some((name) => name.startsWith('engram_inspector_'));
}

/** Asserts a page shows stored markup only as text: no element of its own (the inspector has no script or image). */
function expectEscaped(page: string): void {
  expect(page).not.toMatch(/<script/i);
  expect(page).not.toMatch(/<img/i);
}

describe('the inspector without tokens (loopback)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let server: RunningHttpServer;
  let browser: InspectorClient;
  let decision: string;
  let hostile: string;

  beforeEach(async () => {
    temp = makeTempDir();
    server = await startInProcess(temp.dir);
    browser = new InspectorClient(server.url);
    decision = await remember(server.url, { text: 'We chose PostgreSQL for billing', kind: 'decision', tier: 'must' });
    hostile = await remember(server.url, {
      text: `Remember this ${SCRIPT} and ${IMAGE}`,
      scope: `user:${IMAGE}`,
      key: SCRIPT,
      tags: [SCRIPT],
      abstract: IMAGE,
      data: { note: SCRIPT },
    });
  });
  afterEach(async () => {
    await server.close();
    temp.remove();
  });

  it('serves the memories at / with a session cookie that scripts cannot read and other sites never get', async () => {
    const page = await browser.get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('We chose PostgreSQL for billing');
    const cookie = page.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(new RegExp(`^engram_inspector_${server.port}=[A-Za-z0-9_-]{43};`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    // The same session on the next page: no new cookie.
    expect((await browser.get('/stats')).headers.getSetCookie()).toEqual([]);
  });

  it('sends headers that allow no script, no framing and no referrer to other sites', async () => {
    const { headers } = await browser.get('/memories');
    const policy = headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/script-src/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'self'");
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('referrer-policy')).toBe('same-origin');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('shows stored markup as text on every page that shows it', async () => {
    const entities = await send(server.url, 'POST', '/v1/graph/entities', {
      body: {
        entities: [
          { name: IMAGE, entityType: 'person', observations: [SCRIPT] },
          { name: `Mallory ${SCRIPT}`, entityType: IMAGE },
        ],
      },
    });
    expect(entities.status).toBe(200);
    await send(server.url, 'POST', '/v1/graph/relations', {
      body: { relations: [{ from: IMAGE, to: `Mallory ${SCRIPT}`, relationType: SCRIPT }] },
    });
    for (const path of [
      '/memories',
      `/memories?q=remember&scope=${encodeURIComponent(`user:${IMAGE}`)}`,
      `/memories/${hostile}`,
      '/graph',
      `/graph/entity?name=${encodeURIComponent(IMAGE)}`,
      `/graph?q=${encodeURIComponent('mallory')}`,
      '/stats',
      '/activity',
    ]) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(200);
      expectEscaped(page.text);
    }
    const memoryPage = (await browser.get(`/memories/${hostile}`)).text;
    expect(memoryPage).toContain('&lt;script&gt;window.__xss = 1&lt;/script&gt;');
    expect(memoryPage).toContain('&lt;img src=x onerror=&quot;window.__xss = 2&quot;&gt;');
    const entityPage = (await browser.get(`/graph/entity?name=${encodeURIComponent(IMAGE)}`)).text;
    expect(entityPage).toContain('<svg');
    expect(entityPage).toContain('Mallory &lt;script&gt;');
  });

  it('changes tier, pinned, hard rule and tags through the form; the API reads the change', async () => {
    const page = await browser.get(`/memories/${decision}`);
    const reply = await browser.post(`/memories/${decision}/edit`, {
      _csrf: csrfTokenIn(page.text),
      tier: 'nice',
      pinned: 'on',
      hardRule: 'on',
      tags: 'billing, database ,billing',
    });
    expect(reply.status).toBe(303);
    expect(reply.headers.get('location')).toBe(`/memories/${decision}?done=updated`);
    expect(await readMemory(server.url, decision)).toMatchObject({
      tier: 'nice',
      pinned: true,
      hardRule: true,
      tags: ['billing', 'database'],
    });
    expect((await browser.get(`/memories/${decision}?done=updated`)).text).toContain('Saved.');

    // Unchecked boxes clear the flags.
    await browser.post(`/memories/${decision}/edit`, { _csrf: csrfTokenIn(page.text), tier: 'must', tags: '' });
    expect(await readMemory(server.url, decision)).toMatchObject({ tier: 'must', pinned: false, hardRule: false, tags: [] });
  });

  it('forgets a memory (archived, out of the list) and restores it', async () => {
    const token = csrfTokenIn((await browser.get(`/memories/${decision}`)).text);
    expect((await browser.post(`/memories/${decision}/forget`, { _csrf: token })).status).toBe(303);
    expect((await readMemory(server.url, decision)).archivedAt).toEqual(expect.any(String));
    expect((await browser.get('/memories')).text).not.toContain(decision);
    expect((await browser.get('/memories?status=archived')).text).toContain(decision);
    expect((await browser.get(`/memories/${decision}`)).text).toContain('Restore');

    expect((await browser.post(`/memories/${decision}/restore`, { _csrf: token })).status).toBe(303);
    expect((await readMemory(server.url, decision)).archivedAt).toBeNull();
    expect((await browser.get('/memories')).text).toContain(decision);
  });

  it('keeps a tag that holds a comma when another field is saved, and splits only tags typed anew', async () => {
    const tagged = await remember(server.url, { text: 'Invoices are archived yearly', tags: ['finance, legal', 'archive'] });
    const page = (await browser.get(`/memories/${tagged}`)).text;
    expect(page).toContain('value="finance, legal, archive"');
    const _csrf = csrfTokenIn(page);
    await browser.post(`/memories/${tagged}/edit`, { _csrf, tier: 'must', tags: 'finance, legal, archive' });
    expect(await readMemory(server.url, tagged)).toMatchObject({ tier: 'must', tags: ['finance, legal', 'archive'] });
    // A form without the field leaves the tags alone; a changed field replaces them.
    await browser.post(`/memories/${tagged}/edit`, { _csrf, tier: 'nice' });
    expect(await readMemory(server.url, tagged)).toMatchObject({ tier: 'nice', tags: ['finance, legal', 'archive'] });
    await browser.post(`/memories/${tagged}/edit`, { _csrf, tier: 'nice', tags: 'finance, archive' });
    expect((await readMemory(server.url, tagged)).tags).toEqual(['finance', 'archive']);
  });

  it('answers a bad edit with a 400 page that says why, and changes nothing', async () => {
    const _csrf = csrfTokenIn((await browser.get(`/memories/${decision}`)).text);
    const loud = await browser.post(`/memories/${decision}/edit`, { _csrf, tier: 'loud', pinned: 'on', tags: 'x' });
    expect(loud.status).toBe(400);
    expect(loud.text).toMatch(/^<!DOCTYPE html>/);
    expect(loud.text).toContain('tier must be one of: must, nice, unknown');
    const missing = await browser.post('/memories/01NOSUCHMEMORY/forget', { _csrf });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('no memory with id 01NOSUCHMEMORY');
    expect(await readMemory(server.url, decision)).toMatchObject({ tier: 'must', pinned: false, tags: [], archivedAt: null });
  });

  it('refuses to restore a memory whose key a newer live memory now holds, and leaves it archived', async () => {
    const first = await remember(server.url, { text: 'Deploys go out on Tuesdays', key: 'deploy-day' });
    const _csrf = csrfTokenIn((await browser.get(`/memories/${first}`)).text);
    expect((await browser.post(`/memories/${first}/forget`, { _csrf })).status).toBe(303);
    const second = await remember(server.url, { text: 'Deploys go out on Wednesdays', key: 'deploy-day' });
    const refused = await browser.post(`/memories/${first}/restore`, { _csrf });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(`cannot restore: memory ${second} now holds the key deploy-day in global`);
    expect((await readMemory(server.url, first)).archivedAt).toEqual(expect.any(String));
    expect((await readMemory(server.url, second)).archivedAt).toBeNull();
  });

  it('restores a memory with every field it had, its text still found by search', async () => {
    const before = await readMemory(server.url, hostile);
    const _csrf = csrfTokenIn((await browser.get(`/memories/${hostile}`)).text);
    await browser.post(`/memories/${hostile}/forget`, { _csrf });
    await browser.post(`/memories/${hostile}/restore`, { _csrf });
    const after = await readMemory(server.url, hostile);
    expect({ ...after, updatedAt: null }).toEqual({ ...before, updatedAt: null });
    const found = await send<{ hits: { memory: { id: string } }[] }>(server.url, 'POST', '/v1/search', {
      body: { query: 'remember this' },
    });
    expect(found.body.hits.map((hit) => hit.memory.id)).toContain(hostile);
  });

  it('searches without counting as a retrieval (no cooldown from looking)', async () => {
    const page = await browser.get('/memories?q=postgresql+billing');
    expect(page.text).toContain(decision);
    expect(await readMemory(server.url, decision)).toMatchObject({ retrievalCount: 0, lastRetrievedAt: null });
  });

  it('refuses a form without the session’s token, or sent from another site, and changes nothing', async () => {
    const token = csrfTokenIn((await browser.get(`/memories/${decision}`)).text);
    const fields = { tier: 'nice', tags: 'changed' };
    const attempts = [
      browser.post(`/memories/${decision}/edit`, fields),
      browser.post(`/memories/${decision}/edit`, { ...fields, _csrf: 'guessed' }),
      browser.post(
        `/memories/${decision}/forget`,
        { _csrf: token },
        { origin: 'https://evil.example', secFetchSite: 'cross-site' },
      ),
      browser.post(`/memories/${decision}/forget`, { _csrf: token }, { origin: 'https://evil.example' }),
      browser.post(`/memories/${decision}/forget`, { _csrf: token }, { secFetchSite: 'cross-site' }),
      browser.post(`/memories/${decision}/forget`, { _csrf: token }, { origin: 'http://127.0.0.1:1', secFetchSite: 'same-site' }),
      browser.post(`/memories/${decision}/forget`, { _csrf: token }, { origin: 'null' }),
      // Another browser (no cookie) holding a token it copied.
      new InspectorClient(server.url).post(`/memories/${decision}/forget`, { _csrf: token }),
    ];
    // (A foreign Origin on a loopback server is refused before the inspector, by the DNS-rebinding check.)
    for (const reply of await Promise.all(attempts)) {
      expect(reply.status).toBe(403);
      expect(reply.text).toMatch(/refused/i);
    }
    expect(await readMemory(server.url, decision)).toMatchObject({ tier: 'must', tags: [], archivedAt: null });
  });

  it('takes URL-encoded forms only', async () => {
    await browser.get('/');
    const reply = await fetch(`${server.url}/memories/${decision}/forget`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: [...browser.cookies].map(([n, v]) => `${n}=${v}`).join('; ') },
      body: '{}',
    });
    expect(reply.status).toBe(415);
    expect((await readMemory(server.url, decision)).archivedAt).toBeNull();
  });

  it('answers an unknown memory with a page; paths outside the inspector keep the API’s JSON errors', async () => {
    const missing = await browser.get('/memories/01NOSUCHMEMORY');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('no memory with id 01NOSUCHMEMORY');
    expect((await browser.get('/memories?tier=loud')).status).toBe(400);
    expectApiError(await send(server.url, 'GET', '/nothing'), 404, 'route_not_found');
    expect((await send(server.url, 'GET', '/v1/stats')).status).toBe(200);
  });

  it('pages through memories 50 at a time, and lists only the pinned ones', async () => {
    for (let i = 0; i < 60; i++) await remember(server.url, { text: `routine note number ${i}`, pinned: i % 20 === 0 });
    const first = await browser.get('/memories');
    expect(first.text.match(/class="id" href="\/memories\//g)).toHaveLength(50);
    const older = /href="(\/memories\?after=[^"]+)"/.exec(first.text)?.[1] as string;
    expect(older).toBeDefined();
    const second = await browser.get(older);
    expect(second.text.match(/class="id" href="\/memories\//g)).toHaveLength(12);
    expect(second.text).not.toContain('next →');
    const pinned = await browser.get('/memories?flag=pinned');
    expect(pinned.text.match(/class="id" href="\/memories\//g)).toHaveLength(3);
    const notes = await browser.get('/memories?kind=decision');
    expect(notes.text.match(/class="id" href="\/memories\//g)).toHaveLength(1);
  });

  it('answers every section', async () => {
    for (const path of [
      '/sessions',
      '/sessions/s1',
      '/receipts',
      '/working-set',
      '/notes',
      '/activity',
      '/solutions',
      '/graph',
      '/stats',
    ]) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).toMatch(/^<!DOCTYPE html>/);
    }
    // One tenant on the file: its size may be shown.
    expect((await browser.get('/stats')).text).toMatch(/size<\/dt><dd>[\d.]+ [kMG]?B/);
  });
});

describe('the inspector with tokens', () => {
  const ACME = 'acme-inspector-token-0123456789';
  const GLOBEX = 'globex-inspector-token-0123456789';
  let temp: ReturnType<typeof makeTempDir>;
  let server: RunningHttpServer;
  let acmeMemory: string;
  let globexMemory: string;

  beforeEach(async () => {
    temp = makeTempDir();
    server = await startInProcess(temp.dir, [
      { token: ACME, tenant: 'acme' },
      { token: GLOBEX, tenant: 'globex' },
    ]);
    acmeMemory = await remember(server.url, { text: 'Acme ships on Tuesdays' }, ACME);
    globexMemory = await remember(server.url, { text: 'Globex ships on Thursdays' }, GLOBEX);
  });
  afterEach(async () => {
    await server.close();
    temp.remove();
  });

  /** The sign-in form's own CSRF token, as a browser gets it by opening the form. */
  async function signInFormToken(browser: InspectorClient): Promise<string> {
    return csrfTokenIn((await browser.get('/sign-in')).text);
  }

  /** A browser signed in with `token` through the sign-in form. */
  async function signedIn(token: string): Promise<InspectorClient> {
    const browser = new InspectorClient(server.url);
    const reply = await browser.post('/sign-in', { _csrf: await signInFormToken(browser), token, next: '/memories' });
    expect(reply.status).toBe(303);
    return browser;
  }

  it('sends a browser without a session to sign in, remembering where it was going', async () => {
    const browser = new InspectorClient(server.url);
    const reply = await browser.get('/memories?q=ships');
    expect(reply.status).toBe(303);
    expect(reply.headers.get('location')).toBe('/sign-in?next=%2Fmemories%3Fq%3Dships');
    const form = await browser.get('/sign-in?next=%2Fmemories%3Fq%3Dships');
    expect(form.text).toContain('type="password" name="token"');
    expect(form.text).toContain('method="post" action="/sign-in"');
    // No session before sign-in: the only cookie is the sign-in form's own token, for /sign-in alone.
    expect(form.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^engram_sign_in_\d+=[\w-]{43}; Max-Age=3600; Path=\/sign-in; HttpOnly; SameSite=Strict$/),
    ]);
  });

  it('signs in with the token in a form post: the cookie holds a session id, never the token', async () => {
    const browser = new InspectorClient(server.url);
    const _csrf = await signInFormToken(browser);
    const reply = await browser.post('/sign-in', { _csrf, token: ACME, next: '/memories?q=ships' });
    expect(reply.status).toBe(303);
    expect(reply.headers.get('location')).toBe('/memories?q=ships');
    const cookie = reply.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(ACME);
    const page = await browser.get('/memories');
    expect(page.text).not.toContain(ACME);
    expect(page.text).toContain('tenant <strong>acme</strong>');
  });

  it('refuses a wrong token, and a sign-in posted by another site', async () => {
    const browser = new InspectorClient(server.url);
    const wrong = await browser.post('/sign-in', { _csrf: await signInFormToken(browser), token: 'not-the-token-0123456789' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('not valid');
    const forged = await browser.post(
      '/sign-in',
      { _csrf: csrfTokenIn(wrong.text), token: ACME },
      { origin: 'https://evil.example', secFetchSite: 'cross-site' },
    );
    expect(forged.status).toBe(403);
    expect(hasSession(browser)).toBe(false);
    const away = await browser.post('/sign-in', { _csrf: csrfTokenIn(wrong.text), token: ACME, next: 'https://evil.example/' });
    expect(away.headers.get('location')).toBe('/');
  });

  it('refuses a sign-in without the sign-in form’s token, even with same-site headers (login CSRF)', async () => {
    const victim = new InspectorClient(server.url);
    const formToken = await signInFormToken(victim);
    const attempts = [
      // A form that never came from the sign-in page.
      victim.post('/sign-in', { token: ACME }),
      victim.post('/sign-in', { _csrf: 'guessed', token: ACME }),
      // The form's token without the cookie it was issued with (another browser's).
      new InspectorClient(server.url).post('/sign-in', { _csrf: formToken, token: ACME }),
    ];
    for (const reply of await Promise.all(attempts)) {
      expect(reply.status).toBe(403);
      expect(reply.text).toMatch(/refused: the sign-in form is missing its token/);
      expect(reply.headers.getSetCookie().join('\n')).not.toMatch(/engram_inspector_/);
    }
    expect(hasSession(victim)).toBe(false);
  });

  it('binds the session to the token’s tenant', async () => {
    const acme = await signedIn(ACME);
    const list = (await acme.get('/memories')).text;
    expect(list).toContain('Acme ships on Tuesdays');
    expect(list).not.toContain('Globex');
    expect((await acme.get(`/memories/${globexMemory}`)).status).toBe(404);
    const token = csrfTokenIn((await acme.get(`/memories/${acmeMemory}`)).text);
    expect((await acme.post(`/memories/${globexMemory}/forget`, { _csrf: token })).status).toBe(404);
    expect((await readMemory(server.url, globexMemory, GLOBEX)).archivedAt).toBeNull();
    // The file holds both tenants: its path and size are not one tenant's to see.
    expect((await acme.get('/stats')).text).toContain('shared by several tenants');
  });

  it('signs out: the session ends and its cookie opens nothing', async () => {
    const browser = await signedIn(ACME);
    const [name, value] = [...browser.cookies][0] as [string, string];
    const token = csrfTokenIn((await browser.get('/memories')).text);
    expect((await browser.post('/sign-out', {})).status).toBe(403);
    const out = await browser.post('/sign-out', { _csrf: token });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/sign-in');
    const replayed = new InspectorClient(server.url);
    replayed.cookies.set(name, value);
    expect((await replayed.get('/memories')).status).toBe(303);
    expect((await replayed.post(`/memories/${acmeMemory}/forget`, { _csrf: token })).status).toBe(401);
  });

  it('keeps the API bearer-only: the inspector’s cookie opens no API route', async () => {
    const browser = await signedIn(ACME);
    const cookie = [...browser.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    expectApiError(await send(server.url, 'GET', '/v1/stats', { headers: { cookie } }), 401, 'unauthorized');
  });
});

import { describe, expect, it } from 'vitest';

import { crossSiteReason, csrfTokenMatches } from './csrf.js';

describe('crossSiteReason', () => {
  const host = '127.0.0.1:7077';

  it.each([
    ['a form of the same page', { host, origin: 'http://127.0.0.1:7077', secFetchSite: 'same-origin' }],
    ['a client that sends neither header (curl)', { host, origin: undefined, secFetchSite: undefined }],
    ['a navigation the user started', { host, origin: undefined, secFetchSite: 'none' }],
    ['an origin that differs only in case', { host: 'LOCALHOST:7077', origin: 'http://localhost:7077', secFetchSite: undefined }],
  ])('allows %s', (_name, headers) => {
    expect(crossSiteReason(headers)).toBeNull();
  });

  it.each([
    ['another site', { host, origin: 'https://evil.example', secFetchSite: 'cross-site' }, /cross-site/],
    [
      'another port of the same host (same-site)',
      { host, origin: 'http://127.0.0.1:9999', secFetchSite: 'same-site' },
      /same-site/,
    ],
    ['another origin without Sec-Fetch-Site', { host, origin: 'http://127.0.0.1:9999', secFetchSite: undefined }, /another site/],
    ['an opaque origin', { host, origin: 'null', secFetchSite: undefined }, /opaque/],
    ['a malformed origin', { host, origin: 'not a url', secFetchSite: undefined }, /malformed/],
    ['an origin but no Host', { host: undefined, origin: 'http://127.0.0.1:7077', secFetchSite: undefined }, /another site/],
  ])('refuses %s', (_name, headers, reason) => {
    expect(crossSiteReason(headers)).toMatch(reason);
  });
});

describe('csrfTokenMatches', () => {
  it('accepts the session’s token only', () => {
    expect(csrfTokenMatches('token-A', 'token-A')).toBe(true);
    expect(csrfTokenMatches('token-A', 'token-B')).toBe(false);
    expect(csrfTokenMatches('token-A', 'token-A ')).toBe(false);
  });

  it('refuses a missing or empty token', () => {
    expect(csrfTokenMatches('token-A', undefined)).toBe(false);
    expect(csrfTokenMatches('token-A', null)).toBe(false);
    expect(csrfTokenMatches('token-A', '')).toBe(false);
  });
});

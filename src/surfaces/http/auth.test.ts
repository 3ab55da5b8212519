import { describe, expect, it } from 'vitest';

import { assertBindAllowed, isLoopbackHost, parseTokenBindings, TenantResolver } from './auth.js';

const A = 'a'.repeat(16);
const B = 'b'.repeat(20);

describe('parseTokenBindings', () => {
  it('binds ENGRAM_TOKEN to the default tenant and ENGRAM_TOKENS pairs to theirs', () => {
    expect(parseTokenBindings({ ENGRAM_TOKEN: A, ENGRAM_TOKENS: ` ${B}=acme , c${B}=globex:eu ` }, 'default')).toEqual([
      { token: A, tenant: 'default' },
      { token: B, tenant: 'acme' },
      { token: `c${B}`, tenant: 'globex:eu' },
    ]);
    expect(parseTokenBindings({}, 'default')).toEqual([]);
    expect(parseTokenBindings({ ENGRAM_TOKEN: '  ' }, 'default')).toEqual([]);
  });

  it('keeps = inside a token (base64 padding) and splits at the last one', () => {
    expect(parseTokenBindings({ ENGRAM_TOKENS: `${A}==acme` }, 'default')).toEqual([{ token: `${A}=`, tenant: 'acme' }]);
  });

  it.each([
    [{ ENGRAM_TOKEN: 'short' }, /ENGRAM_TOKEN: a token must be at least 16 characters/],
    [{ ENGRAM_TOKEN: `${A} ${A}` }, /without spaces/],
    [{ ENGRAM_TOKENS: A }, /ENGRAM_TOKENS entry 1 is not token=tenant/],
    [{ ENGRAM_TOKENS: `${A}=acme,${B}=` }, /ENGRAM_TOKENS entry 2: the tenant must be/],
    [{ ENGRAM_TOKENS: `${A}=has space` }, /the tenant must be/],
    [{ ENGRAM_TOKEN: A, ENGRAM_TOKENS: `${A}=acme` }, /the same token is given twice/],
  ])('refuses %j', (env, message) => {
    expect(() => parseTokenBindings(env, 'default')).toThrow(message);
  });

  it('never puts a token in an error message', () => {
    try {
      parseTokenBindings({ ENGRAM_TOKENS: `${A}=acme,${B}` }, 'default');
    } catch (error) {
      expect((error as Error).message).not.toContain(B);
    }
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['127.0.0.1.evil.example', false],
    ['example.com', false],
  ])('%s → %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('assertBindAllowed', () => {
  it('lets loopback go without tokens, and anything else only with one', () => {
    expect(() => assertBindAllowed('127.0.0.1', [])).not.toThrow();
    expect(() => assertBindAllowed('0.0.0.0', [])).toThrow(/listening on 0\.0\.0\.0 needs a bearer token/);
    expect(() => assertBindAllowed('0.0.0.0', [{ token: A, tenant: 'default' }])).not.toThrow();
  });
});

describe('TenantResolver', () => {
  const resolver = new TenantResolver(
    [
      { token: A, tenant: 'acme' },
      { token: B, tenant: 'globex' },
    ],
    'default',
  );

  it('names the tenant of a known bearer token', () => {
    expect(resolver.tenantFor(`Bearer ${A}`)).toBe('acme');
    expect(resolver.tenantFor(`bearer ${B}`)).toBe('globex');
  });

  it.each([undefined, '', A, `Basic ${A}`, `Bearer ${A}x`, `Bearer ${A.slice(1)}`, 'Bearer '])(
    'refuses %j with 401',
    (header) => {
      expect(() => resolver.tenantFor(header)).toThrow(expect.objectContaining({ status: 401, code: 'unauthorized' }));
    },
  );

  it('serves the default tenant to everyone when there are no tokens', () => {
    expect(new TenantResolver([], 'default').tenantFor(undefined)).toBe('default');
  });
});

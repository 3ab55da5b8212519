/**
 * Who a request comes from. Tokens are bearer tokens, each bound to one tenant:
 * `ENGRAM_TOKEN` to the default tenant, `ENGRAM_TOKENS="tokenA=acme,tokenB=globex"` to named
 * ones. A tenant is a hard boundary — every engine is opened for one tenant — so the token
 * alone decides which memories a request can read or write. Without any token the server
 * serves the default tenant to anyone who can reach it, which is allowed on loopback only.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

import { ConfigError } from '../../index.js';
import { ApiError } from './api-error.js';

/** One bearer token and the tenant it may use. */
export interface TokenBinding {
  token: string;
  tenant: string;
}

/** Shortest token accepted: a guessable token on a network port is no lock at all. */
export const MIN_TOKEN_CHARS = 16;
const TENANT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

/**
 * The token bindings from the environment: `ENGRAM_TOKEN` (the default tenant) and
 * `ENGRAM_TOKENS` (comma-separated `token=tenant` pairs). Mistakes are ConfigErrors that name
 * the variable; token values are never echoed.
 */
export function parseTokenBindings(env: Readonly<Record<string, string | undefined>>, defaultTenant: string): TokenBinding[] {
  const bindings: TokenBinding[] = [];
  const single = env.ENGRAM_TOKEN?.trim();
  if (single) bindings.push({ token: checkToken(single, 'ENGRAM_TOKEN'), tenant: defaultTenant });
  const list = env.ENGRAM_TOKENS?.trim();
  if (list) {
    for (const [index, pair] of list.split(',').entries()) {
      if (pair.trim() === '') continue;
      const at = pair.lastIndexOf('=');
      const where = `ENGRAM_TOKENS entry ${index + 1}`;
      if (at <= 0) throw new ConfigError(`${where} is not token=tenant: write ENGRAM_TOKENS="tokenA=tenant1,tokenB=tenant2"`);
      const tenant = pair.slice(at + 1).trim();
      if (!TENANT_NAME.test(tenant)) {
        throw new ConfigError(
          `${where}: the tenant must be 1-128 letters, digits or _ . : @ - (starting with a letter or digit)`,
        );
      }
      bindings.push({ token: checkToken(pair.slice(0, at).trim(), where), tenant });
    }
  }
  const seen = new Set<string>();
  for (const binding of bindings) {
    if (seen.has(binding.token))
      throw new ConfigError('the same token is given twice (ENGRAM_TOKEN / ENGRAM_TOKENS): one token, one tenant');
    seen.add(binding.token);
  }
  return bindings;
}

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** Refuses a bind beyond loopback without tokens: anyone on the network could read every memory. */
export function assertBindAllowed(host: string, bindings: readonly TokenBinding[]): void {
  if (bindings.length === 0 && !isLoopbackHost(host)) {
    throw new ConfigError(
      `listening on ${host} needs a bearer token: set ENGRAM_TOKEN (or ENGRAM_TOKENS="token=tenant,…"), or listen on 127.0.0.1`,
    );
  }
}

/**
 * Resolves requests to tenants. With no bindings every request is the default tenant's; with
 * bindings, a request without a known `Authorization: Bearer` token is refused.
 */
export class TenantResolver {
  private readonly bindings: readonly { digest: Buffer; tenant: string }[];
  private readonly defaultTenant: string;

  constructor(bindings: readonly TokenBinding[], defaultTenant: string) {
    this.bindings = bindings.map((binding) => ({ digest: digest(binding.token), tenant: binding.tenant }));
    this.defaultTenant = defaultTenant;
  }

  /** Whether requests must carry a token. */
  get requiresToken(): boolean {
    return this.bindings.length > 0;
  }

  /** The tenants tokens are bound to. */
  get tenants(): string[] {
    return [...new Set(this.bindings.map((binding) => binding.tenant))];
  }

  /** The tenant of a request with this `Authorization` header; an ApiError 401 otherwise. */
  tenantFor(authorization: string | null | undefined): string {
    if (!this.requiresToken) return this.defaultTenant;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) {
      throw new ApiError(401, 'unauthorized', 'this server needs a bearer token: send the header Authorization: Bearer <token>');
    }
    const presented = digest(match[1] as string);
    let tenant: string | null = null;
    // Compare with every binding, in constant time, so timing does not reveal a near match.
    for (const binding of this.bindings) {
      if (timingSafeEqual(presented, binding.digest)) tenant ??= binding.tenant;
    }
    if (tenant === null) throw new ApiError(401, 'unauthorized', 'the bearer token is not valid for this server');
    return tenant;
  }
}

function checkToken(token: string, where: string): string {
  if (token.length < MIN_TOKEN_CHARS || /\s/.test(token)) {
    throw new ConfigError(
      `${where}: a token must be at least ${MIN_TOKEN_CHARS} characters without spaces (try: openssl rand -hex 24)`,
    );
  }
  return token;
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

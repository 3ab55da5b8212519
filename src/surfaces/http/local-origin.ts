/**
 * DNS-rebinding protection for a server on loopback: a web page can point a name it controls
 * at 127.0.0.1 and have the browser send requests, but it cannot make the `Host` header (or
 * the `Origin` the browser adds) name this machine. So on a loopback bind, both must.
 */
import { ApiError } from './api-error.js';
import { isLoopbackHost } from './auth.js';

/** Refuses a request whose `Host` or `Origin` names another machine. */
export function assertLocalRequest(host: string | undefined, origin: string | undefined): void {
  if (host !== undefined && !isLoopbackHost(hostname(host))) {
    throw new ApiError(
      403,
      'forbidden',
      `this server only answers requests addressed to this machine (Host: ${host.slice(0, 100)})`,
    );
  }
  if (origin !== undefined && origin !== 'null' && !isLoopbackOrigin(origin)) {
    throw new ApiError(403, 'forbidden', 'requests from web pages of other sites are refused');
  }
}

/** `localhost:7077` → `localhost`, `[::1]:7077` → `::1`. */
function hostname(host: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(host);
  if (bracketed) return bracketed[1] as string;
  return host.replace(/:\d+$/, '');
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

// Whether `engram serve` could listen where it is asked to, found out before anything is built:
// a taken port is said at once, with the Engram that holds it if it is one, and a free port to
// use instead.
import { createServer } from 'node:net';

/**
 * What stands in the way of listening on `host:port`, in the user's words, or null when nothing
 * does (or when the obstacle is one `engram serve` reports itself, such as an unknown host).
 * @param {number} port
 * @param {string} host
 * @returns {Promise<string | null>}
 */
export async function portProblem(port, host) {
  const code = await tryListen(port, host);
  if (code === null) return null;
  if (code === 'EACCES') {
    return `port ${port} on ${host} needs privileges this user does not have: choose one above 1023, e.g. npm start -- --port 7077`;
  }
  if (code !== 'EADDRINUSE') return null;
  const holder = (await engramAt(port, host))
    ? `Engram is already serving there (http://${hostInUrl(host)}:${port}/)`
    : 'another program holds it';
  const free = await freePortAfter(port, host);
  const choice = free === null ? 'npm start -- --port 0 (any free port)' : `npm start -- --port ${free}`;
  return `port ${port} on ${host} is in use: ${holder}. Choose another port with ${choice}`;
}

/** Listens on `host:port` for a moment; the error code, or null when it could. */
function tryListen(port, host) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error) => resolve(error.code ?? 'unknown'));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** Whether an Engram answers `GET /health` there (within half a second). */
async function engramAt(port, host) {
  try {
    const response = await globalThis.fetch(`http://${hostInUrl(host)}:${port}/health`, {
      signal: globalThis.AbortSignal.timeout(500),
    });
    const body = await response.json();
    return body?.status === 'ok' && typeof body.version === 'string';
  } catch {
    return false;
  }
}

/** The first free port among the next twenty, or null. */
async function freePortAfter(port, host) {
  for (let candidate = port + 1; candidate <= Math.min(port + 20, 65535); candidate += 1) {
    if ((await tryListen(candidate, host)) === null) return candidate;
  }
  return null;
}

function hostInUrl(host) {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** What the long-running commands (serve, proxy) share: reading --port, and waiting for Ctrl+C. */
import { InvalidInputError } from '../../index.js';

/** `--port`: 0 to 65535 (0 picks a free port). */
export function parsePort(raw: string): number {
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidInputError(`--port must be a whole number from 0 to 65535 (got ${raw})`);
  }
  return port;
}

/** Resolves on the first SIGINT or SIGTERM; a second one exits at once. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

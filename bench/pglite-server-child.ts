/**
 * The PGlite server of `bench footprint --store pglite[+pgvector]`: PGlite (PostgreSQL compiled
 * to WebAssembly, which ships pgvector) with its data in DIRECTORY, served over PostgreSQL's wire
 * protocol by pglite-socket on a free port of 127.0.0.1, in a process of its own so its memory and
 * CPU time can be read apart from the client's. With `--pgvector` the database has the extension
 * created, as an administrator would on a server. Prints one JSON line, `{"url": …}`, when it
 * listens; stops and exits when its standard input closes or on SIGTERM.
 *
 * Usage: node pglite-server-child.js DIRECTORY [--pgvector]
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * PGlite is one session: statements of connections open together would share its transactions.
 * The bench uses one connection at a time (a pool of one, then the next); a few more are
 * accepted so that the next one is not turned away while the last is still closing.
 */
const MAX_CONNECTIONS = 4;

const [directory, flag] = process.argv.slice(2);
if (directory === undefined || (flag !== undefined && flag !== '--pgvector')) {
  throw new Error('usage: pglite-server-child DIRECTORY [--pgvector]');
}
const db = await PGlite.create({ dataDir: directory, extensions: { vector } });
// eslint-disable-next-line no-restricted-syntax -- the server's administrator's step, not the store's: the store only finds it
if (flag === '--pgvector') await db.exec('CREATE EXTENSION vector');
const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: MAX_CONNECTIONS });
await server.start();
process.stdout.write(
  `${JSON.stringify({ url: `postgres://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable` })}\n`,
);

let stopping: Promise<void> | null = null;
const stop = () => {
  stopping ??= (async () => {
    await server.stop();
    await db.close();
    process.exit(0);
  })();
};
process.stdin.on('end', stop).resume();
process.on('SIGTERM', stop);

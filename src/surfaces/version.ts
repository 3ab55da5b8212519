/** The package's version, for servers that announce themselves (MCP `serverInfo`, `GET /health`). */
import { createRequire } from 'node:module';

// package.json sits two folders above both src/surfaces/ and dist/surfaces/.
const manifest = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The version in package.json, e.g. "0.1.0". */
export const ENGRAM_VERSION: string = manifest.version;

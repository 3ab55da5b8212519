/** The package's version, for servers that announce themselves (MCP `serverInfo`, `GET /health`). */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { packageRoot } from './package-root.js';

const manifest = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string };

/** The version in package.json, e.g. "0.1.0". */
export const ENGRAM_VERSION: string = manifest.version;

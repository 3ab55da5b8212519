/** The package's version, for servers that announce themselves (MCP `serverInfo`, `GET /health`). */
import { packageManifest } from './package-root.js';

/** The version in package.json, e.g. "0.1.0". */
export const ENGRAM_VERSION: string = packageManifest().version;

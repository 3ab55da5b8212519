/**
 * Engram's package folder (the one holding its package.json), found from this module's place: it
 * runs from src/surfaces/ in a checkout, dist/surfaces/ once built, and dist/cli/ inside the
 * bundled binary (scripts/lib/bundle-bin.mjs), each at its own depth below the package.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the surfaces read of package.json. */
export interface PackageManifest {
  version: string;
  bin: { engram: string };
}

/** The nearest folder above this module that holds a package.json. */
export function packageRoot(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(folder, 'package.json'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
  return folder;
}

/** The package's package.json. */
export function packageManifest(): PackageManifest {
  return JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as PackageManifest;
}

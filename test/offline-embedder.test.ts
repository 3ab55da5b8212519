/**
 * The default embedder must work with no network at all: its model ships in node_modules.
 * Proven by running it in a fresh network namespace (`unshare -n`, no interfaces but a down
 * loopback), and in-process by failing every socket connection and fetch.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { createLocalEmbedder } from '../src/embedding/local-use-embedder.js';

const root = path.resolve(import.meta.dirname, '..');

function canUnshareNetwork(): boolean {
  try {
    execFileSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('the local embedder offline', () => {
  // unshare needs root or user namespaces; without them the in-process check below still runs.
  it.skipIf(!canUnshareNetwork())('embeds inside a network namespace with no network', () => {
    const script = `
      import { createLocalEmbedder } from ${JSON.stringify(path.join(root, 'dist/embedding/local-use-embedder.js'))};
      const [v] = await createLocalEmbedder().embed(['offline memories still work']);
      process.stdout.write(JSON.stringify({ length: v.length }));
    `;
    const result = spawnSync('unshare', ['-n', process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ length: 512 });
  });

  it('opens no socket and calls no fetch while loading and embedding', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(() => {
      throw new Error('network used');
    });
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('network used'));
    try {
      const [vector] = await createLocalEmbedder().embed(['a memory embedded without any network']);
      expect(vector).toHaveLength(512);
      expect(connect).not.toHaveBeenCalled();
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      connect.mockRestore();
      fetchSpy.mockRestore();
    }
  });
});

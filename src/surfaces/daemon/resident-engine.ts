/**
 * The resident process's engine: the database held open with the settings of the command being
 * served. Each command's configuration is loaded from the settings it sent, as the command would
 * have loaded it; when it differs from the open engine's (the `[daemon]` section aside), the
 * engine is closed and the database opened again with the command's settings. The embedding
 * model is shared within the process, so that costs milliseconds, not a model load; and only one
 * engine is open at a time, so two configurations never hold two copies of the database's
 * in-memory vectors.
 */
import { type Engram, type EngramConfig, loadConfig, openEngram } from '../../index.js';
import type { CallerSettings } from './caller-settings.js';

/** The engine open on one database, switched to each command's settings. */
export class ResidentEngine {
  private current: { key: string; engram: Engram } | null = null;
  private closed = false;
  /** The configuration file of the latest command's settings (of the process's own before one), or null. */
  configFile: string | null = null;

  /** @param db the database file (the resident process's, whatever a command's configuration says) */
  constructor(private readonly db: string) {}

  /**
   * Opens the database with `config` (the process's own, at start) and warms it: the model is
   * loaded and the indexes read before the process listens.
   * @param file the database as the process's command line names it (so the default database's
   *   folder is made, as the caller's own process would)
   */
  async warm(config: EngramConfig, configFile: string | null, file: string): Promise<void> {
    const engram = await this.open(config, file);
    this.configFile = configFile;
    await engram.search({ query: 'warm up', limit: 1, recordRetrieval: false });
  }

  /**
   * The configuration a command with `settings` would run with, and the engine opened with it.
   * @throws ConfigError when the command's configuration is wrong (the command would report it)
   */
  async engineFor(settings: CallerSettings): Promise<{ engram: Engram; config: EngramConfig }> {
    const { origin: _origin, ...config } = loadConfig({
      file: settings.config ?? undefined,
      cwd: settings.cwd,
      env: settings.env,
    });
    const engram = await this.open(config);
    this.configFile = settings.config;
    return { engram, config };
  }

  /** Closes the engine; a later command gets an error. */
  async close(): Promise<void> {
    this.closed = true;
    const open = this.current;
    this.current = null;
    await open?.engram.close();
  }

  private async open(config: EngramConfig, file = this.db): Promise<Engram> {
    if (this.closed) throw new Error('the resident process is stopping');
    // The process serves its database file: a configuration's PostgreSQL store is never its own.
    const fileConfig: EngramConfig = { ...config, store: { ...config.store, url: '' } };
    const key = JSON.stringify({ ...fileConfig, daemon: null });
    if (this.current?.key === key) return this.current.engram;
    const previous = this.current;
    this.current = null;
    await previous?.engram.close();
    const engram = await openEngram({ config: fileConfig, path: file, mustExist: false });
    this.current = { key, engram };
    return engram;
  }
}

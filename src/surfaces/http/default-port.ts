/** The port `engram serve` listens on unless told otherwise (its own module, so the CLI can name it without loading the server). */
export const DEFAULT_PORT = 7077;

/**
 * The documentation is checked against the code: every `engram <command> [<subcommand>]` and
 * its options in README.md, CONTRIBUTING.md and docs/ exist in the real CLI program, every
 * `engram.toml` section and key exists in the config schema (and docs/configuration.md lists
 * all of them with their defaults), every `npm run` script exists, relative links and named
 * source paths point at files and headings that exist, a doctor sample shows the current schema
 * version, and the README stays short.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Command } from 'commander';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../src/config/load.js';
import { LATEST_VERSION } from '../src/store/sqlite/migrations.js';
import { buildProgram } from '../src/surfaces/cli/program.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The README's size limit, in bytes (12 KB read the strict way). */
const README_MAX_BYTES = 12_000;

interface DocFile {
  /** Path relative to the repository root, for messages. */
  name: string;
  text: string;
}

/** A piece of code in a document: a fenced block (with its language) or an inline span. */
interface CodeSnippet {
  file: string;
  line: number;
  lang: string | null;
  text: string;
}

function markdownFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The documents that describe today's Engram (CHANGELOG.md is history, so it may name the past). */
function documents(): DocFile[] {
  const files = [path.join(ROOT, 'README.md'), path.join(ROOT, 'CONTRIBUTING.md'), ...markdownFiles(path.join(ROOT, 'docs'))];
  return files.map((file) => ({ name: path.relative(ROOT, file), text: readFileSync(file, 'utf8') }));
}

/** Fenced blocks, inline code spans outside them, and the prose lines (for links). */
function splitMarkdown(doc: DocFile): { code: CodeSnippet[]; prose: { line: number; text: string }[] } {
  const code: CodeSnippet[] = [];
  const prose: { line: number; text: string }[] = [];
  let fence: { lang: string | null; line: number; lines: string[] } | null = null;
  doc.text.split('\n').forEach((text, index) => {
    const line = index + 1;
    const marker = /^\s*```(\S*)/.exec(text);
    if (marker) {
      if (fence) {
        code.push({ file: doc.name, line: fence.line, lang: fence.lang, text: fence.lines.join('\n') });
        fence = null;
      } else {
        fence = { lang: marker[1] || null, line, lines: [] };
      }
      return;
    }
    if (fence) {
      fence.lines.push(text);
      return;
    }
    prose.push({ line, text });
    for (const span of text.matchAll(/`([^`]+)`/g)) code.push({ file: doc.name, line, lang: null, text: span[1] as string });
  });
  return { code, prose };
}

const docs = documents();
const parts = docs.map((doc) => ({ doc, ...splitMarkdown(doc) }));
const snippets = parts.flatMap((part) => part.code);

// --- the CLI ---------------------------------------------------------------------------------

const GLOBAL_OPTIONS_WITH_VALUE = new Set(['--db', '--config']);

function optionNames(command: Command): Set<string> {
  const names = new Set(['--help', '-h']);
  for (let at: Command | null = command; at; at = at.parent) {
    for (const option of at.options) {
      if (option.long) names.add(option.long);
      if (option.short) names.add(option.short);
    }
  }
  return names;
}

function findCommand(parent: Command, name: string): Command | undefined {
  return parent.commands.find((command) => command.name() === name || command.aliases().includes(name));
}

/** Every `engram …` invocation in code, split at shell operators, as the words after `engram`. */
function invocations(snippet: CodeSnippet): { words: string[]; where: string }[] {
  const found: { words: string[]; where: string }[] = [];
  snippet.text.split('\n').forEach((text, offset) => {
    const where = `${snippet.file}:${snippet.line + offset + (snippet.lang === null ? 0 : 1)}`;
    // A comment is prose, not a command; quoted text is an argument, not an option.
    const code = text.replace(/(^|\s)#.*$/, '');
    for (const segment of code.split(/\s+(?:&&|\|\||\||;)\s+/)) {
      // A lookahead, so that `claude mcp add engram -- npx engram mcp` yields both occurrences.
      for (const match of segment.matchAll(/(?<![\w./@:<-])engram(?=((?:\s+\S+)+))/g)) {
        const rest = (match[1] as string).replace(/\\?"[^"]*\\?"|'[^']*'/g, ' ARG ');
        found.push({ words: rest.trim().split(/\s+/), where });
      }
    }
  });
  return found;
}

/** What is wrong with one invocation, or null when the command, subcommand and options exist. */
function checkInvocation(program: Command, words: readonly string[]): string | null {
  // `… add engram -- npx engram mcp`: a name given to another program, not the command.
  if (words[0] === '--') return null;
  let index = 0;
  // Global options before the command (`engram --db x add …`).
  while (words[index]?.startsWith('-')) index += GLOBAL_OPTIONS_WITH_VALUE.has(words[index] as string) ? 2 : 1;
  const name = words[index];
  if (name === undefined || !/^[a-z][\w-]*$/.test(name)) return null; // `engram --version`, `engram <command>`, `engram …`
  let command = findCommand(program, name);
  if (!command) return `no command "engram ${name}"`;
  const subcommands = command.commands.filter((sub) => sub.name() !== 'help');
  const next = words[index + 1];
  if (subcommands.length > 0 && next !== undefined && /^[a-z][\w-]*$/.test(next)) {
    const sub = findCommand(command, next);
    if (!sub) return `no subcommand "engram ${name} ${next}"`;
    command = sub;
  }
  const known = optionNames(command);
  for (const word of words) {
    const option = /^\[?(--?[a-zA-Z][\w-]*)/.exec(word)?.[1];
    if (option && !known.has(option)) return `engram ${command.name()} has no option ${option}`;
  }
  return null;
}

describe('the CLI the documents show', async () => {
  const program = await buildProgram();
  const all = snippets.flatMap(invocations);

  it('finds engram commands in the documents', () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it('names only commands, subcommands and options that exist', () => {
    const problems = all.flatMap(({ words, where }) => {
      const problem = checkInvocation(program, words);
      return problem ? [`${where}: ${problem} (in "engram ${words.join(' ')}")`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('documents every command in docs/cli.md', () => {
    const reference = docs.find((doc) => doc.name === path.join('docs', 'cli.md'))?.text ?? '';
    const missing = program.commands
      .filter((command) => command.name() !== 'help')
      .flatMap((command) => {
        const subs = command.commands.filter((sub) => sub.name() !== 'help');
        const names = subs.length > 0 ? subs.map((sub) => `${command.name()} ${sub.name()}`) : [command.name()];
        return names.filter((full) => !reference.includes(`engram ${full}`));
      });
    expect(missing).toEqual([]);
  });

  it('runs only npm scripts that exist', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
    );
    const problems = snippets.flatMap((snippet) =>
      [...snippet.text.matchAll(/\bnpm (?:run ([\w:-]+)|(start|test)\b)/g)]
        .map((match) => (match[1] ?? match[2]) as string)
        .filter((script) => !scripts.includes(script))
        .map((script) => `${snippet.file}:${snippet.line}: no npm script "${script}"`),
    );
    expect(problems).toEqual([]);
  });
});

// --- the configuration -----------------------------------------------------------------------

const defaults = parseConfig({}) as unknown as Record<string, unknown>;

function lookUp(dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((node, key) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    return (node as Record<string, unknown>)[key];
  }, defaults);
}

function isSection(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every key path of the configuration that holds a value (not a section). */
function leafKeys(node: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(node).flatMap(([key, value]) =>
    isSection(value) ? leafKeys(value as Record<string, unknown>, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('the configuration the documents show', () => {
  const tomlBlocks = snippets.filter((snippet) => snippet.lang === 'toml');

  it('finds engram.toml blocks', () => {
    expect(tomlBlocks.length).toBeGreaterThan(0);
  });

  it('writes every engram.toml block with keys the schema accepts', () => {
    const problems = tomlBlocks.flatMap((block) => {
      try {
        parseConfig(parseToml(block.text), `${block.file}:${block.line}`);
        return [];
      } catch (error) {
        return [(error as Error).message];
      }
    });
    expect(problems).toEqual([]);
  });

  it('lists exactly the defaults in the first block of docs/configuration.md', () => {
    const block = tomlBlocks.find((snippet) => snippet.file === path.join('docs', 'configuration.md'));
    expect(block).toBeDefined();
    expect(parseToml((block as CodeSnippet).text)).toEqual(defaults);
  });

  it('names only sections and keys that exist in inline mentions such as `[memory.recall] threshold`', () => {
    const problems = snippets
      .filter((snippet) => snippet.lang === null)
      .flatMap((snippet) => {
        const match = /^\[([a-z_.]+)\](?:\.?\s*([a-z_]+))?/.exec(snippet.text);
        if (!match) return [];
        const [, section, key] = match as unknown as [string, string, string | undefined];
        if (!isSection(lookUp(section))) return [`${snippet.file}:${snippet.line}: no section [${section}]`];
        if (key !== undefined && lookUp(`${section}.${key}`) === undefined) {
          return [`${snippet.file}:${snippet.line}: no key ${key} in [${section}]`];
        }
        return [];
      });
    expect(problems).toEqual([]);
  });

  it('names only keys that exist in ENGRAM_SECTION__KEY overrides', () => {
    const problems = snippets.flatMap((snippet) =>
      [...snippet.text.matchAll(/\bENGRAM_([A-Z_]+__[A-Z_]+)/g)]
        .map((match) => match[1] as string)
        .filter((variable) => lookUp(variable.toLowerCase().split('__').join('.')) === undefined)
        .map((variable) => `${snippet.file}:${snippet.line}: ENGRAM_${variable} names no key`),
    );
    expect(problems).toEqual([]);
  });

  it('gives every key a row with its default in docs/configuration.md', () => {
    const text = docs.find((doc) => doc.name === path.join('docs', 'configuration.md'))?.text ?? '';
    const rows = new Map<string, string>();
    let section: string | null = null;
    for (const line of text.split('\n')) {
      const heading = /^#+\s+`\[([a-z_.]+)\]`/.exec(line);
      if (heading) section = heading[1] as string;
      else if (/^#/.test(line)) section = null;
      const row = /^\|\s*`([a-z_]+)`\s*\|\s*`([^`]*)`\s*\|/.exec(line);
      if (row && section) rows.set(`${section}.${row[1] as string}`, row[2] as string);
    }
    const compact = (value: string) => value.replace(/\s+/g, '');
    const problems = leafKeys(defaults).flatMap((key) => {
      const documented = rows.get(key);
      if (documented === undefined) return [`${key} has no row`];
      const expected = JSON.stringify(lookUp(key));
      return compact(documented) === expected ? [] : [`${key}: documented default ${documented}, schema ${expected}`];
    });
    const unknown = [...rows.keys()].filter((key) => lookUp(key) === undefined).map((key) => `${key} is not a key`);
    expect([...problems, ...unknown]).toEqual([]);
  });
});

// --- links and size --------------------------------------------------------------------------

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = (heading[1] as string)
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return out;
}

describe('the documents themselves', () => {
  it('link only to files and headings that exist', () => {
    const problems = parts.flatMap(({ doc, prose }) =>
      prose.flatMap(({ line, text }) =>
        [...text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].flatMap((match) => {
          const target = match[1] as string;
          if (/^[a-z]+:/i.test(target)) return []; // https:, mailto:
          const [file, anchor] = target.split('#') as [string, string | undefined];
          const resolved = file === '' ? path.join(ROOT, doc.name) : path.resolve(ROOT, path.dirname(doc.name), file);
          if (!existsSync(resolved)) return [`${doc.name}:${line}: ${target} does not exist`];
          if (anchor && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(anchor)) {
            return [`${doc.name}:${line}: ${target} names no heading`];
          }
          return [];
        }),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('names only source files and folders that exist, such as `src/config/schema.ts`', () => {
    const problems = snippets
      .filter((snippet) => snippet.lang === null && /^(?:src|test|bench|examples)\/[\w./-]*$/.test(snippet.text))
      .filter((snippet) => !existsSync(path.join(ROOT, snippet.text)))
      .map((snippet) => `${snippet.file}:${snippet.line}: ${snippet.text} does not exist`);
    expect(problems).toEqual([]);
  });

  it('shows the schema version this build writes in every engram doctor sample', () => {
    const samples = snippets.filter((snippet) => snippet.lang !== null && /\bengram doctor\b/.test(snippet.text));
    expect(samples.length).toBeGreaterThan(0);
    const problems = samples.flatMap((snippet) =>
      [...snippet.text.matchAll(/schema (\d+), the current one|\.db \(schema (\d+)\)/g)]
        .map((match) => Number(match[1] ?? match[2]))
        .filter((version) => version !== LATEST_VERSION)
        .map((version) => `${snippet.file}:${snippet.line}: schema ${version}, but this build writes ${LATEST_VERSION}`),
    );
    expect(problems).toEqual([]);
  });

  it(`keeps the README within ${README_MAX_BYTES} bytes`, () => {
    expect(Buffer.byteLength(readFileSync(path.join(ROOT, 'README.md')))).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('opens the README with the command that runs Engram and the one that tests it', () => {
    const first = splitMarkdown({ name: 'README.md', text: readFileSync(path.join(ROOT, 'README.md'), 'utf8') }).code.find(
      (snippet) => snippet.lang !== null,
    );
    const lines = (first?.text ?? '').split('\n').map((line) => line.replace(/\s+#.*$/, '').trim());
    expect(lines.slice(0, 2)).toEqual(['npm ci && npm start', 'npm test']);
  });
});

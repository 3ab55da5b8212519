// The API report: every subpath of package.json `exports`, each exported name with its
// declaration as the built .d.ts files give it (comments and private members left out), read
// with the TypeScript compiler. `npm run api-report` writes it to api/engram-api.md;
// test/api-report.test.ts fails when the built package's surface differs from that file, so a
// change to what users can import is always a deliberate, reviewed diff.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import * as prettier from 'prettier';
import ts from 'typescript';

/** Where the report is kept, relative to the package root. */
export const REPORT_FILE = path.join('api', 'engram-api.md');

/** Entries with no compatibility promise: their names are listed, not their declarations. */
const UNPROMISED = new Set(['./internal']);

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The report's text for the package at `root`, whose dist/ must be built. */
export async function buildApiReport(root) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const entries = Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && target.types)
    .map(([subpath, target]) => ({
      subpath,
      name: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      file: path.join(root, target.types),
    }));
  const program = ts.createProgram(
    entries.map((entry) => entry.file),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    },
  );
  const checker = program.getTypeChecker();
  const sections = entries.map((entry) => {
    const source = program.getSourceFile(entry.file);
    if (!source) throw new Error(`${entry.file} does not exist: run npm run build first`);
    const module = checker.getSymbolAtLocation(source);
    const names = (module ? checker.getExportsOfModule(module) : []).map((symbol) => describeExport(checker, symbol));
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { ...entry, names };
  });
  const lines = [
    '# The API report',
    '',
    'What each entry of the `engram` package exports, read from the built `.d.ts` files by `npm run api-report`',
    '(scripts/api-report.mjs). Do not edit it by hand: `npm test` fails when the built package differs from it.',
    'When a change to the surface is deliberate, run `npm run api-report` and commit this file with it.',
    'What belongs in which entry, and why: [docs/decisions/public-api.md](../docs/decisions/public-api.md).',
    '',
    '| Entry | Names | Values | Types only |',
    '| --- | --- | --- | --- |',
    ...sections.map((section) => {
      const values = section.names.filter((name) => name.value).length;
      return `| \`${section.name}\` | ${section.names.length} | ${values} | ${section.names.length - values} |`;
    }),
  ];
  for (const section of sections) {
    lines.push('', `## ${section.name}`, '');
    if (UNPROMISED.has(section.subpath)) {
      lines.push('No compatibility promise: names and kinds only.', '');
      for (const name of section.names) lines.push(`- \`${name.name}\`: ${name.kind}${name.value ? '' : ' (type only)'}`);
      continue;
    }
    lines.push('```ts');
    for (const name of section.names) lines.push(...name.declarations);
    lines.push('```');
  }
  const text = `${lines.join('\n')}\n`;
  const options = (await prettier.resolveConfig(path.join(root, REPORT_FILE))) ?? {};
  return prettier.format(text, { ...options, parser: 'markdown' });
}

/** One exported name: its kind, whether it exists at run time, its declarations as text. */
function describeExport(checker, symbol) {
  const name = symbol.getName();
  const typeOnly = (symbol.declarations ?? []).some(
    (node) => ts.isExportSpecifier(node) && (node.isTypeOnly || node.parent.parent.isTypeOnly),
  );
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const kind = kindOf(target);
  const value = !typeOnly && (target.flags & ts.SymbolFlags.Value) !== 0;
  const declarations = (target.declarations ?? []).map((node) => {
    const text = printDeclaration(node, checker);
    const renamed = target.getName() !== name ? `/* exported as ${name} */ ` : '';
    return `${value || kind === 'interface' || kind === 'type' ? '' : '/* type only */ '}${renamed}${text}`;
  });
  return { name, kind, value, declarations };
}

function kindOf(symbol) {
  const flags = symbol.flags;
  if (flags & ts.SymbolFlags.Class) return 'class';
  if (flags & ts.SymbolFlags.Function) return 'function';
  if (flags & ts.SymbolFlags.Enum) return 'enum';
  if (flags & ts.SymbolFlags.Variable) return 'const';
  if (flags & ts.SymbolFlags.Interface) return 'interface';
  if (flags & ts.SymbolFlags.TypeAlias) return 'type';
  return 'other';
}

/**
 * A declaration as the .d.ts states it, without `export`/`declare`, comments or private members.
 * A type derived from a zod schema (`z.input<typeof Schema>`) is spelled out, since the schema it
 * names may be one no entry exports.
 */
function printDeclaration(node, checker) {
  const source = node.getSourceFile();
  if (ts.isTypeAliasDeclaration(node) && /\bz\.(input|output|infer)</.test(node.type.getText(source))) {
    const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.MultilineObjectLiterals | ts.TypeFormatFlags.InTypeAlias;
    return `type ${node.name.text} = ${checker.typeToString(checker.getTypeAtLocation(node.name), undefined, flags)};`;
  }
  if (ts.isVariableDeclaration(node)) {
    const list = node.parent;
    const keyword = list.flags & ts.NodeFlags.Const ? 'const' : list.flags & ts.NodeFlags.Let ? 'let' : 'var';
    return `${keyword} ${printer.printNode(ts.EmitHint.Unspecified, node, source)};`;
  }
  let printed = node;
  if (ts.isClassDeclaration(node)) {
    const members = node.members.filter((member) => !(member.name && ts.isPrivateIdentifier(member.name)) && !hasPrivate(member));
    printed = ts.factory.updateClassDeclaration(
      node,
      node.modifiers,
      node.name,
      node.typeParameters,
      node.heritageClauses,
      members,
    );
  }
  return printer
    .printNode(ts.EmitHint.Unspecified, printed, source)
    .replace(/^export (default )?/, '')
    .replace(/^declare /, '');
}

function hasPrivate(member) {
  return (ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Private) !== 0;
}

/**
 * Null when the kept report and the built one agree; otherwise what differs (a line diff: - the
 * file, + the build, each under its entry's heading; at most 40 lines) and how to accept it.
 */
export function describeDifference(kept, built, shown = REPORT_FILE) {
  if (kept === built) return null;
  const changed = kept === null ? ['(the file does not exist)'] : lineDiff(kept.split('\n'), built.split('\n'));
  const listed = changed.length > 40 ? [...changed.slice(0, 40), `… and ${changed.length - 40} more lines`] : changed;
  return (
    `The built package's API differs from ${shown}:\n${listed.join('\n')}\n` +
    `If the change is deliberate, run \`npm run api-report\` and commit ${shown} with it; otherwise undo the change to the exports.`
  );
}

/** The lines only one side has, in order (longest common subsequence), under their `## ` headings. */
function lineDiff(before, after) {
  const width = after.length + 1;
  const common = new Int32Array((before.length + 1) * width);
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      common[i * width + j] =
        before[i] === after[j]
          ? common[(i + 1) * width + j + 1] + 1
          : Math.max(common[(i + 1) * width + j], common[i * width + j + 1]);
    }
  }
  const lines = [];
  let heading = null;
  let shownHeading = null;
  const push = (line) => {
    if (heading !== shownHeading && heading !== null) lines.push(heading);
    shownHeading = heading;
    lines.push(line);
  };
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      if (before[i].startsWith('## ')) heading = before[i];
      i++;
      j++;
    } else if (j < after.length && (i === before.length || common[i * width + j + 1] >= common[(i + 1) * width + j])) {
      push(`+ ${after[j++]}`);
    } else {
      push(`- ${before[i++]}`);
    }
  }
  return lines;
}

// Compiles a TypeScript project in memory with the compiler's API: the same program and checks as
// `tsc -p`, but the emitted files are handed back instead of written, so the build decides how
// they reach the disk (write-in-place.mjs) and writes nothing at all when the code has an error.
import path from 'node:path';
import process from 'node:process';

/**
 * Type-checks and emits the project of `configFile`.
 * @param {string} configFile absolute path of a tsconfig file
 * @returns {Promise<{ ok: true, outDir: string, outputs: Map<string, string> } | { ok: false, report: string }>}
 *   the emitted files by absolute path, or the compiler's diagnostics as tsc prints them
 */
export async function compileProject(configFile) {
  const { default: ts } = await import('typescript');
  const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  const formatHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  };
  const configErrors = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic) },
  );
  if (parsed === undefined || configErrors.length > 0 || parsed.errors.length > 0) {
    return { ok: false, report: format([...configErrors, ...(parsed?.errors ?? [])], formatHost) };
  }
  const outDir = parsed.options.outDir;
  if (outDir === undefined) return { ok: false, report: `${configFile} names no outDir\n` };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) return { ok: false, report: format(errors, formatHost) + summary(errors.length) };
  const outputs = new Map();
  const emitted = program.emit(undefined, (fileName, text) => outputs.set(path.resolve(fileName), text));
  const emitErrors = emitted.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (emitted.emitSkipped || emitErrors.length > 0) {
    return { ok: false, report: format(emitErrors, formatHost) + summary(emitErrors.length) };
  }
  return { ok: true, outDir: path.resolve(outDir), outputs };
}

function summary(count) {
  return `\nFound ${count} error${count === 1 ? '' : 's'}.\n`;
}

import { describe, expect, it } from 'vitest';

import { buildProgram, programFor } from './program.js';

const run = (...words: string[]) => ['node', 'engram', ...words];
const names = async (argv: string[]) => (await programFor(argv)).commands.map((command) => command.name());

describe('the program for one run', () => {
  it('registers only the subcommand the run names, past the global options and their values', async () => {
    expect(await names(run('search', 'billing'))).toEqual(['search']);
    expect(await names(run('--db', 'list', '--json', 'list', '-n', '3'))).toEqual(['list']);
    expect(await names(run('--config=engram.toml', '--store', 'postgres://x', 'doctor'))).toEqual(['doctor']);
  });

  it('registers every subcommand, in help’s order, when the run names none or one that does not exist', async () => {
    const all = (await buildProgram()).commands.map((command) => command.name());
    expect(all.slice(0, 3)).toEqual(['add', 'search', 'list']);
    expect(all).toHaveLength(27);
    expect(await names(run('--help'))).toEqual(all);
    expect(await names(run('serach', 'billing'))).toEqual(all); // commander's suggestion needs them all
    expect(await names(run('help', 'add'))).toEqual(all);
  });
});

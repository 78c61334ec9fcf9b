import { describe, expect, it } from 'vitest';
import type { CliCommandGroup } from './cli-command';
import { commandIndex, entriesFor } from './command-index';
import { commandTable } from './command-table';

describe('the lazy command index', () => {
  it('names every command and subcommand of the table, in its order, and loads the same command objects', async () => {
    expect(commandIndex.map(([name]) => name)).toEqual(commandTable.map((entry) => entry.name));
    for (const [name, loader] of commandIndex) {
      const entry = commandTable.find((candidate) => candidate.name === name);
      if (typeof loader === 'function') {
        expect(await loader()).toBe(entry);
        continue;
      }
      const group = entry as CliCommandGroup;
      expect(Object.keys(loader)).toEqual(group.subcommands.map((sub) => sub.name));
      for (const sub of group.subcommands) expect(await loader[sub.name]?.()).toBe(sub);
    }
  });

  it('loads only the command that runs, nothing for --version, and the whole table for help and mistakes', async () => {
    expect(await entriesFor(['--version'])).toEqual([]);
    const [checkpoint] = await entriesFor(['--local', 'checkpoint', '/tmp/x']);
    expect(checkpoint?.name).toBe('checkpoint');
    const [group] = (await entriesFor(['checkpoints', 'list', '/tmp/x'])) as CliCommandGroup[];
    expect(group?.subcommands.map((sub) => sub.name)).toEqual(['list']);
    for (const argv of [
      [],
      ['--help'],
      ['checkpoints'],
      ['checkpoints', '--help'],
      ['checkpoints', 'frobnicate'],
      ['checkpoints', 'constructor'],
      ['frobnicate'],
    ]) {
      expect(await entriesFor(argv)).toBe(commandTable);
    }
  });
});

import path from 'node:path';
import type { MemoryFileView, MemoryTarget } from '../../../shared/contract/memory-contract';
import { isAppError } from '../../../shared/errors';
import { describeMemoryUsage } from '../../../shared/tools/memory-usage-text';
import { memoryTargets } from '../../../shared/contract/memory-targets';
import { exitCodes, flagOption, stringOption, writeLine, type CliCommand, type CliIo } from '../cli-command';
import {
  memoryOptions,
  memoryOptionsHelp,
  numbered,
  printRefusal,
  targetOption,
  withMemory,
} from './memory-command-support';

function printView(io: CliIo, view: MemoryFileView): void {
  const name = path.basename(view.file);
  if (!view.exists) {
    writeLine(
      io.stdout,
      `${name}: not created yet (${view.file}); limit ${view.usage.limit.toLocaleString('en-US')} characters.`,
    );
    return;
  }
  writeLine(
    io.stdout,
    `${name}: ${describeMemoryUsage(view.usage)}, ${view.entries.length} ${view.entries.length === 1 ? 'entry' : 'entries'} (${view.file})`,
  );
  if (view.drift.isDrifted) {
    writeLine(io.stdout, `  DRIFTED: ${view.drift.reasons.map((reason) => reason.message).join('; ')}.`);
    writeLine(
      io.stdout,
      `  Changes are refused until it is adopted: vigil memory adopt --dir ${JSON.stringify(view.dir)} --target ${view.target}`,
    );
    return;
  }
  view.entries.forEach((entry, index) => writeLine(io.stdout, numbered(index, entry)));
}

/** `vigil memory list`: the entries of MEMORY.md and USER.md, their usage and drift. */
export const memoryListCommand: CliCommand = {
  name: 'list',
  summary: 'Show the entries of MEMORY.md and USER.md, their usage against the limit and any drift.',
  usage: 'vigil memory list [--dir D] [--target memory|user] [--json]',
  help: [
    'Options:',
    ...memoryOptionsHelp.map((line) => line.replace('(MEMORY.md, the default)', '(MEMORY.md)')),
    '',
    'Without --target both files are shown. A drifted file shows why instead of entries.',
  ].join('\n'),
  options: memoryOptions,
  positionals: { min: 0, max: 0, names: '' },
  async run(args, io) {
    const targets: readonly MemoryTarget[] =
      stringOption(args, 'target') === undefined ? memoryTargets : [targetOption(args)];
    const isJson = flagOption(args, 'json');
    try {
      const views = await withMemory(args, io, ({ service, dir }) =>
        Promise.all(targets.map((target) => service.read(dir, target))),
      );
      if (isJson) writeLine(io.stdout, JSON.stringify({ ok: true, value: views }));
      else views.forEach((view) => printView(io, view));
      return exitCodes.ok;
    } catch (error) {
      if (isAppError(error)) return printRefusal(io, 'list', error, isJson);
      throw error;
    }
  },
};

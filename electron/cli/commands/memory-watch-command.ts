import path from 'node:path';
import type { MemoryChange } from '../../../shared/contract/memory-contract';
import { describeMemoryUsage } from '../../../shared/tools/memory-usage-text';
import { exitCodes, flagOption, stringOption, UsageError, writeLine, type CliCommand } from '../cli-command';
import { cliHome, cliLogger } from '../cli-context';

/** One line for an external change: when, which file, what changed, usage, drift. */
export function describeChange(change: MemoryChange): string {
  const name = path.basename(change.file);
  const what = !change.current.exists
    ? 'deleted'
    : !change.previous.exists
      ? `created with ${change.current.entries.length} entries`
      : `+${change.diff.added.length} −${change.diff.removed.length} entries${change.diff.isReordered ? ', reordered' : ''}`;
  const drift = change.drift.isDrifted ? `; DRIFTED: ${change.drift.reasons.map((reason) => reason.kind).join(', ')}` : '';
  const superseded = change.notifications > 1 ? ` (${change.notifications} writes)` : '';
  const by = change.source === 'vigil' ? ' (by Vigil)' : '';
  return `${change.at} ${name} in ${change.dir}${by}: ${what}${superseded}, ${describeMemoryUsage(change.usage)}${drift}`;
}

/** Resolves when the process is asked to stop. */
function untilStopped(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve(signal));
  });
}

/** `vigil memory watch`: one line per external change of a memory file, as it happens. */
export const memoryWatchCommand: CliCommand = {
  name: 'watch',
  summary: 'Print one line per change made to a memory file outside Vigil, as it happens (until Ctrl+C).',
  usage: 'vigil memory watch [--dir D] [--all] [--json]',
  help: [
    'Options:',
    '  --dir D   watch only this memory directory (default: every one Vigil manages)',
    '  --all     print the changes Vigil writes as well (marked "by Vigil")',
    '  --json    print each change as one JSON object per line',
    '',
    'Changes written by Vigil (from any Vigil process) are not printed without --all. When several writes land within',
    'a few milliseconds they are reported as one change (the line says how many writes it covers).',
    '"Watching …" goes to stderr once the watch is in place.',
  ].join('\n'),
  options: { dir: { type: 'string' }, all: { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(args, io) {
    const home = cliHome(io);
    const logger = cliLogger(home, io);
    const given = stringOption(args, 'dir');
    if (given === '') throw new UsageError('--dir needs a directory');
    const isJson = flagOption(args, 'json');
    const isAll = flagOption(args, 'all');
    // Each external edit is checkpointed as the app would; when the app runs too, the second capture finds nothing new.
    const { createCore } = await import('../../core/create-core');
    const core = await createCore({ home, logger, env: io.env, mode: 'one-shot', watchMemory: true, ...(given === undefined ? {} : { memoryDirectory: path.resolve(io.cwd, given) }) });
    try {
      const service = await core.services.memory();
      service.onChange((change) => {
        if (change.source !== 'external' && !isAll) return;
        writeLine(io.stdout, isJson ? JSON.stringify(change) : describeChange(change));
      });
      const directories = await service.directories();
      writeLine(io.stderr, `Watching ${directories.map((directory) => directory.path).join(', ')} (Ctrl+C to stop).`);
      await untilStopped();
      return exitCodes.ok;
    } finally {
      await core.dispose();
    }
  },
};

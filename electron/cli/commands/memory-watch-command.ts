import path from 'node:path';
import type { MemoryChange } from '../../../shared/contract/memory-contract';
import { describeMemoryUsage } from '../../../shared/tools/memory-usage-text';
import { defaultAppearPollMs, hermesMemoriesPath, resolveDirectoryPath } from '../../memory';
import {
  exitCodes,
  flagOption,
  stringOption,
  UsageError,
  writeLine,
  type CliCommand,
  type CliIo,
} from '../cli-command';
import { cliHome, cliLogger } from '../cli-context';

/** One line for an external change: when, which file, what changed, usage, drift. */
export function describeChange(change: MemoryChange): string {
  const name = path.basename(change.file);
  const what = !change.current.exists
    ? 'deleted'
    : !change.previous.exists
      ? `created with ${change.current.entries.length} ${change.current.entries.length === 1 ? 'entry' : 'entries'}`
      : `+${change.diff.added.length} −${change.diff.removed.length} entries${change.diff.isReordered ? ', reordered' : ''}`;
  const drift = change.drift.isDrifted
    ? `; DRIFTED: ${change.drift.reasons.map((reason) => reason.kind).join(', ')}`
    : '';
  const superseded = change.notifications > 1 ? ` (${change.notifications} writes)` : '';
  const by = change.source === 'vigil' ? ' (by Vigil)' : '';
  const appended =
    change.appended === undefined
      ? ''
      : `; appended to the last entry: ${JSON.stringify(change.appended.appended)} (keep it as an entry of its own in the app)`;
  return `${change.at} ${name} in ${change.dir}${by}: ${what}${superseded}, ${describeMemoryUsage(change.usage)}${drift}${appended}`;
}

/** Why a watch ended or restarts: a signal to stop, or Hermes's active profile moving its memories elsewhere. */
type WatchEnd = { readonly kind: 'stopped' } | { readonly kind: 'profile-changed'; readonly memories: string };

/**
 * Resolves when the process is asked to stop, or (when `follow` is given) when Hermes's memories
 * folder moves (another active profile). The timer it polls with keeps the process alive, which a
 * watch of folders that do not exist yet needs: it has no other handle open.
 */
function untilEnd(
  follow: { readonly current: string; readonly resolve: () => Promise<string> } | undefined,
): Promise<WatchEnd> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (follow === undefined) return;
      void follow.resolve().then(
        (memories) => {
          if (memories !== follow.current) finish({ kind: 'profile-changed', memories });
        },
        () => undefined,
      );
    }, defaultAppearPollMs);
    const onSignal = (): void => finish({ kind: 'stopped' });
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    function finish(end: WatchEnd): void {
      clearInterval(timer);
      for (const signal of signals) process.off(signal, onSignal);
      resolve(end);
    }
    for (const signal of signals) process.once(signal, onSignal);
  });
}

/** Where each watched folder stands, on stderr. */
function watchStateLine(dir: string, state: 'watching' | 'waiting' | 'appeared'): string {
  switch (state) {
    case 'watching':
      return `Watching ${dir} (Ctrl+C to stop).`;
    case 'waiting':
      return `Waiting for ${dir} to appear (Hermes Agent creates it on its first memory write); looking for it every ${defaultAppearPollMs / 1000} s (Ctrl+C to stop).`;
    case 'appeared':
      return `${dir} appeared; watching it now.`;
  }
}

/** Watches until stopped or until Hermes's active profile moves its memories; returns why it ended. */
async function watchOnce(
  io: CliIo,
  options: { readonly only: string | undefined; readonly isJson: boolean; readonly isAll: boolean },
): Promise<WatchEnd> {
  const home = cliHome(io);
  const logger = cliLogger(home, io);
  // Without --dir, Hermes's folder is the active profile's; a later `hermes profile use` moves the watch along.
  const hermes = options.only === undefined ? await resolveDirectoryPath(await hermesMemoriesPath(io.env)) : undefined;
  // Each external edit is checkpointed as the app would; when the app runs too, the second capture finds nothing new.
  const { createCore } = await import('../../core');
  const core = await createCore({
    home,
    logger,
    env: io.env,
    mode: 'one-shot',
    watchMemory: true,
    onMemoryWatchState: (dir, state) => writeLine(io.stderr, watchStateLine(dir, state)),
    memoryDirectory: options.only,
  });
  try {
    const service = await core.services.memory();
    service.onChange((change) => {
      if (change.source !== 'external' && !options.isAll) return;
      writeLine(io.stdout, options.isJson ? JSON.stringify(change) : describeChange(change));
    });
    const follow =
      hermes === undefined
        ? undefined
        : { current: hermes, resolve: async () => resolveDirectoryPath(await hermesMemoriesPath(io.env)) };
    return await untilEnd(follow);
  } finally {
    await core.dispose();
  }
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
    'A folder that does not exist yet (Hermes creates its memories folder on its first write) is looked for every 2 s',
    "and watched from the moment it appears; the watch keeps running meanwhile. Without --dir, Hermes's folder is the",
    'one its memory tool writes: $HERMES_HOME/memories, else the profile named in ~/.hermes/active_profile, and the',
    'watch follows a later profile switch. Where each folder stands goes to stderr.',
  ].join('\n'),
  options: { dir: { type: 'string' }, all: { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(args, io) {
    const given = stringOption(args, 'dir');
    if (given === '') throw new UsageError('--dir needs a directory');
    const options = {
      only: given === undefined ? undefined : path.resolve(io.cwd, given),
      isJson: flagOption(args, 'json'),
      isAll: flagOption(args, 'all'),
    };
    for (;;) {
      const end = await watchOnce(io, options);
      if (end.kind === 'stopped') return exitCodes.ok;
      writeLine(io.stderr, `Hermes Agent's active profile changed: its memories are in ${end.memories} now.`);
    }
  },
};

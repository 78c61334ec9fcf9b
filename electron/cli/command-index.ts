import type { CliCommand, CliCommandGroup } from './cli-command';
import type { CliEntry } from './run-cli';

/** A command's module, loaded when the command runs. */
type CommandLoader = () => Promise<CliCommand>;

/**
 * Where each command lives, by name (a group by subcommand name), in `vigil --help`'s order. The
 * `vigil` executable loads only the module of the command it runs, so a relayed `vigil checkpoints
 * list` never loads the connect command's YAML and diff libraries, the memory watcher's chokidar
 * or zod; command-index.test.ts checks that this index and the full table agree.
 */
export const commandIndex: ReadonlyArray<readonly [string, CommandLoader | Readonly<Record<string, CommandLoader>>]> = [
  ['serve', async () => (await import('./commands/serve-command')).serveCommand],
  ['mcp', async () => (await import('./commands/mcp-command')).mcpCommand],
  ['connect', async () => (await import('./commands/connect-command')).connectCommand],
  ['hook', async () => (await import('./commands/hook-command')).hookCommand],
  ['write', async () => (await import('./commands/write-command')).writeCommand],
  ['tool', async () => (await import('./commands/tool-command')).toolCommand],
  ['checkpoint', async () => (await import('./commands/checkpoint-command')).checkpointCommand],
  [
    'checkpoints',
    {
      list: async () => (await import('./commands/checkpoints-list-command')).checkpointsListCommand,
      diff: async () => (await import('./commands/checkpoints-diff-command')).checkpointsDiffCommand,
      restore: async () => (await import('./commands/checkpoints-restore-command')).checkpointsRestoreCommand,
      log: async () => (await import('./commands/checkpoints-log-command')).checkpointsLogCommand,
      search: async () => (await import('./commands/checkpoints-search-command')).checkpointsSearchCommand,
      status: async () => (await import('./commands/checkpoints-status-command')).checkpointsStatusCommand,
      prune: async () => (await import('./commands/checkpoints-prune-command')).checkpointsPruneCommand,
      pin: async () => (await import('./commands/checkpoints-pin-command')).checkpointsPinCommand,
      unpin: async () => (await import('./commands/checkpoints-pin-command')).checkpointsUnpinCommand,
      rename: async () => (await import('./commands/checkpoints-rename-command')).checkpointsRenameCommand,
    },
  ],
  [
    'memory',
    {
      list: async () => (await import('./commands/memory-list-command')).memoryListCommand,
      add: async () => (await import('./commands/memory-add-command')).memoryAddCommand,
      replace: async () => (await import('./commands/memory-replace-command')).memoryReplaceCommand,
      remove: async () => (await import('./commands/memory-remove-command')).memoryRemoveCommand,
      watch: async () => (await import('./commands/memory-watch-command')).memoryWatchCommand,
      adopt: async () => (await import('./commands/memory-adopt-command')).memoryAdoptCommand,
    },
  ],
  [
    'sessions',
    {
      list: async () => (await import('./commands/sessions-list-command')).sessionsListCommand,
      show: async () => (await import('./commands/sessions-show-command')).sessionsShowCommand,
    },
  ],
  [
    'core',
    {
      status: async () => (await import('./commands/core-control-commands')).coreStatusCommand,
      stop: async () => (await import('./commands/core-control-commands')).coreStopCommand,
      start: async () => (await import('./commands/core-control-commands')).coreStartCommand,
      run: async () => (await import('./commands/core-run-command')).coreRunCommand,
    },
  ],
];

const helpFlags = new Set(['--help', '-h', 'help']);
const versionFlags = new Set(['--version', '-v']);

/**
 * The entries `runCli` needs for these arguments: none for `--version`, the one command (a group
 * holding just the one subcommand) when both names are known, else the whole table (help, usage
 * errors), which `runCli` then explains with the same words as ever.
 */
export async function entriesFor(argv: readonly string[]): Promise<readonly CliEntry[]> {
  const end = argv.indexOf('--');
  const [first, second] = (end < 0 ? argv : argv.slice(0, end)).filter((arg) => arg !== '--local');
  if (first !== undefined && versionFlags.has(first)) return [];
  const found = commandIndex.find(([name]) => name === first)?.[1];
  if (typeof found === 'function') return [await found()];
  const sub =
    found === undefined || second === undefined || helpFlags.has(second) || !Object.hasOwn(found, second)
      ? undefined
      : found[second];
  if (first !== undefined && sub !== undefined) {
    const group: CliCommandGroup = { name: first, summary: '', subcommands: [await sub()] };
    return [group];
  }
  return (await import('./command-table')).commandTable;
}

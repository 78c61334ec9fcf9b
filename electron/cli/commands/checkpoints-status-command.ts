import { escapeControls } from '../../../shared/text/control-characters';
import { exitCodes, flagOption, writeLine, type CliCommand, type CliIo } from '../cli-command';
import { formatBytes } from '../../../shared/text/format-bytes';
import { directoryArgument, localTime, withCheckpoints } from './checkpoint-command';
import {
  pinnedText,
  printConfigAndCuts,
  printWatch,
  retentionLines,
  type StatusView,
} from './checkpoints-status-extras';

/** Skipped paths shown per directory before the rest is summarised. */
const shownSkips = 25;

/** What a directory's snapshots store, and any problem reading its rules. */
function printRules(io: CliIo, rules: StatusView['directories'][number]['rules']): void {
  if (rules === undefined) return;
  const stored =
    rules.kind === 'repository'
      ? `stores the ${rules.tracked ?? 0} file(s) git tracks in ${escapeControls(rules.repository ?? '')}, untracked files by its ignore rules, then Vigil's built-in names`
      : rules.nested === undefined
        ? "stores by Vigil's built-in exclusion names (no git repository)"
        : "stores by Vigil's built-in exclusion names outside the repositories below (no git repository at its top)";
  writeLine(io.stdout, `  ${stored}`);
  for (const nested of rules.nested ?? [])
    writeLine(
      io.stdout,
      `  ${escapeControls(nested.at)}/: ${nested.kind === 'submodule' ? 'a submodule' : 'a repository inside it'}, judged by its own rules: the ${nested.tracked} file(s) it tracks, untracked files by its ignore rules`,
    );
  for (const warning of rules.warnings) writeLine(io.stdout, `  ⚠ ${escapeControls(warning)}`);
}

function printStatus(status: StatusView, io: CliIo): void {
  const { retention } = status;
  writeLine(io.stdout, `Checkpoint store: ${status.gitdir}`);
  writeLine(
    io.stdout,
    `Size: ${formatBytes(status.bytes)} (${status.looseObjects} loose object(s), ${status.packs} pack(s))`,
  );
  writeLine(
    io.stdout,
    `Retention: ${retention.maxSnapshots} checkpoints per directory, ${formatBytes(retention.maxTotalBytes)} in all; files over ${formatBytes(status.maxFileBytes)} are not stored.`,
  );
  printConfigAndCuts(io, status);
  if (status.directories.length === 0) {
    writeLine(io.stdout, '\nNo directory has been checkpointed yet.');
    return;
  }
  for (const directory of status.directories) {
    writeLine(io.stdout);
    const missing = directory.exists ? '' : '  [folder missing: its checkpoints can still be restored]';
    writeLine(
      io.stdout,
      `${directory.dir}  (${directory.count} checkpoint(s)${pinnedText(directory)}, last ${directory.lastTouch === '' ? 'never' : localTime(directory.lastTouch)})${missing}`,
    );
    printRules(io, directory.rules);
    printWatch(io, directory);
    for (const line of retentionLines(directory, status)) writeLine(io.stdout, line);
    if (directory.skipped.length === 0) {
      writeLine(io.stdout, '  nothing skipped');
      continue;
    }
    writeLine(io.stdout, `  not stored (${directory.skipped.length}):`);
    for (const skip of directory.skipped.slice(0, shownSkips))
      writeLine(io.stdout, `    ${escapeControls(skip.path)}  (${skip.reason})`);
    if (directory.skipped.length > shownSkips)
      writeLine(io.stdout, `    … and ${directory.skipped.length - shownSkips} more (--json lists all)`);
  }
}

/** `vigil checkpoints status [DIR]`: sizes, counts, and what was skipped and why. */
export const checkpointsStatusCommand: CliCommand = {
  name: 'status',
  summary: "Show the store: size, retention, each directory's checkpoints and what they do not store, and why.",
  usage: 'vigil checkpoints status [DIR] [--json]',
  help: [
    'Inside a git repository every tracked file is stored, whatever its name; untracked files follow the',
    "repository's ignore rules (.gitignore, .git/info/exclude, the global excludes file), then Vigil's built-in",
    'names. Reasons a path is not stored: excluded (ignored by git, or by the built-in names: dependencies,',
    'build output, caches, virtualenvs, .env*, binaries, media, archives, logs), vcs (a version-control folder',
    'such as a nested .git; the files beside it are stored), oversize (over the size cap, checkpoints.maxFileMiB',
    'in config.json, 50 by default), special (sockets, FIFOs, devices), unreadable, bad-name.',
    'With a resident core (vigil serve or the app), each directory says whether its changes come from the',
    'watcher (which every checkpoint first waits to catch up, and a background walk verifies) or from a walk',
    'of the tree, and why.',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  positionals: { min: 0, max: 1, names: 'DIR' },
  async run(args, io) {
    const dirArgument = args.positionals[0];
    const dir = dirArgument === undefined ? undefined : directoryArgument(io, dirArgument);
    const status = await withCheckpoints(io, (checkpoints) => checkpoints.status(dir));
    if (flagOption(args, 'json')) writeLine(io.stdout, JSON.stringify(status));
    else printStatus(status, io);
    return exitCodes.ok;
  },
};

import path from 'node:path';
import { checkpointReasons } from '../../../shared/checkpoint-reasons';
import type { CheckpointEntry } from '../../checkpoints';
import {
  exitCodes,
  flagOption,
  stringOption,
  UsageError,
  writeLine,
  type CliCommand,
  type CliIo,
} from '../cli-command';
import { checkpointsOf } from '../cli-services';
import { cliRoute } from '../cli-context';
import { withCore, type LocalCoreOptions } from '../relay/relay-or-local';

/** The checkpoint engine's calls a command makes: relayed to the resident core, or in-process on a one-shot core. */
export type CliCheckpoints = ReturnType<typeof checkpointsOf>;

/**
 * Runs `task` with the checkpoint engine: the resident core's when one runs (the UI shows the work
 * at once), else a one-shot one, which gets ready for `options.checkpointing` while it is built.
 */
export async function withCheckpoints<T>(
  io: CliIo,
  task: (checkpoints: CliCheckpoints) => Promise<T>,
  options: LocalCoreOptions = {},
): Promise<T> {
  return withCore(cliRoute(io), (caller) => task(checkpointsOf(caller, io)), options);
}

/** A directory argument made absolute against where the command runs. */
export function directoryArgument(io: CliIo, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError('missing DIR');
  return path.resolve(io.cwd, value);
}

/** A local time as the seed's list shows it: `2026-03-16 04:36`. */
export function localTime(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** "3 files, +10/-2", as the seed's list shows a checkpoint's changes. */
export function changeSummary(entry: CheckpointEntry): string {
  const { files, insertions, deletions } = entry.stats;
  return `${files} file${files === 1 ? '' : 's'}, +${insertions}/-${deletions}`;
}

/** `vigil checkpoint DIR [--reason R]`: takes a checkpoint now. */
export const checkpointCommand: CliCommand = {
  name: 'checkpoint',
  summary: 'Take a checkpoint of a directory now (none when nothing changed since the last one).',
  usage: 'vigil checkpoint DIR [--reason R] [--json]',
  help: [
    'Options:',
    `  --reason R  the checkpoint's subject (default "${checkpointReasons.manual}")`,
    '  --json      print the outcome as one JSON document',
    '',
    'The checkpoint lands on the directory\'s timeline ("vigil checkpoints list DIR"), which the app shows',
    'live. Excluded paths (dependencies, build output, caches, secrets, media, files over the size cap)',
    'are not stored; "vigil checkpoints status DIR" lists them with the reason.',
    'Exit codes: 0 taken or nothing changed, 1 failed, 2 wrong usage.',
  ].join('\n'),
  options: { reason: { type: 'string' }, json: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'DIR' },
  async run(args, io) {
    const dir = directoryArgument(io, args.positionals[0]);
    const reason = stringOption(args, 'reason') ?? checkpointReasons.manual;
    if (reason.trim() === '') throw new UsageError('--reason needs some text');
    const outcome = await withCheckpoints(io, (checkpoints) => checkpoints.checkpoint(dir, { reason }), {
      checkpointing: dir,
      ...(io.checkpointHeadStart === undefined ? {} : { checkpointHeadStart: io.checkpointHeadStart }),
    });
    if (flagOption(args, 'json')) {
      writeLine(io.stdout, JSON.stringify(outcome));
    } else if (outcome.kind === 'created') {
      const { checkpoint } = outcome;
      writeLine(
        io.stdout,
        `Checkpoint ${checkpoint.id.slice(0, 8)} of ${checkpoint.dir}: ${checkpoint.reason} (${changeSummary(checkpoint)}).`,
      );
      if (checkpoint.skipped.length > 0)
        writeLine(
          io.stdout,
          `Not stored: ${checkpoint.skipped.length} path(s); see "vigil checkpoints status ${dir}".`,
        );
    } else {
      writeLine(
        io.stdout,
        outcome.head === undefined
          ? `Nothing to checkpoint in ${dir}.`
          : `Nothing changed since checkpoint ${outcome.head.slice(0, 8)}; no checkpoint taken.`,
      );
    }
    return exitCodes.ok;
  },
};

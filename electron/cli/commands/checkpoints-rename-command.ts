import { exitCodes, flagOption, writeLine, type CliCommand } from '../cli-command';
import { directoryArgument, withCheckpoints } from './checkpoint-command';

/** `vigil checkpoints rename DIR N NAME`: names a checkpoint (kept beside it; the commit never changes). */
export const checkpointsRenameCommand: CliCommand = {
  name: 'rename',
  summary: 'Name a checkpoint, or rename it ("" takes the name away); the list and the app show the name.',
  usage: 'vigil checkpoints rename DIR N NAME [--json]',
  help: [
    'N is a number from "vigil checkpoints list DIR" (1 = newest) or a hex id (or prefix) of a checkpoint in',
    "Vigil's store. The name is kept beside the checkpoint (checkpoints/names/<dirhash>.json): the commit, its",
    'id and its subject never change. One line, at most 200 characters.',
    '',
    'Options:',
    '  --json  print { dir, id, name, changed } as one JSON document',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  positionals: { min: 3, max: 3, names: 'DIR, N and NAME' },
  async run(args, io) {
    const dir = directoryArgument(io, args.positionals[0]);
    const outcome = await withCheckpoints(io, (checkpoints) =>
      checkpoints.rename(dir, args.positionals[1] ?? '', args.positionals[2] ?? ''),
    );
    if (flagOption(args, 'json')) writeLine(io.stdout, JSON.stringify(outcome));
    else if (!outcome.changed)
      writeLine(
        io.stdout,
        `Checkpoint ${outcome.id.slice(0, 8)} of ${outcome.dir} already ${outcome.name === undefined ? 'had no name' : `is named "${outcome.name}"`}.`,
      );
    else
      writeLine(
        io.stdout,
        outcome.name === undefined
          ? `Checkpoint ${outcome.id.slice(0, 8)} of ${outcome.dir} has no name now.`
          : `Checkpoint ${outcome.id.slice(0, 8)} of ${outcome.dir} is named "${outcome.name}".`,
      );
    return exitCodes.ok;
  },
};

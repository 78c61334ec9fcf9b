import { exitCodes, flagOption, writeLine, type CliCommand } from '../cli-command';
import { directoryArgument, withCheckpoints } from './checkpoint-command';

/** `vigil checkpoints pin|unpin DIR N`: keeps a checkpoint whatever retention and the size cap say, or lets them drop it again. */
function pinCommand(isPinned: boolean): CliCommand {
  const name = isPinned ? 'pin' : 'unpin';
  return {
    name,
    summary: isPinned
      ? 'Pin a checkpoint: retention and the store size cap never drop it (nor any newer one of its folder).'
      : 'Unpin a checkpoint: retention and the size cap may drop it again.',
    usage: `vigil checkpoints ${name} DIR N [--json]`,
    help: [
      'N is a number from "vigil checkpoints list DIR" (1 = newest) or a hex id (or prefix) of a checkpoint in',
      "Vigil's store (Hermes Agent's are read only and cannot be pinned).",
      isPinned
        ? 'A timeline keeps everything from its newest checkpoint down to its oldest pinned one, so it may hold more than checkpoints.maxSnapshots while a pin stands.'
        : 'The checkpoint is dropped by the next retention cut if it is older than what the timeline keeps.',
      '',
      'Options:',
      '  --json  print { dir, id, isPinned, changed } as one JSON document',
    ].join('\n'),
    options: { json: { type: 'boolean' } },
    positionals: { min: 2, max: 2, names: 'DIR and N (a number from "vigil checkpoints list DIR", or an id)' },
    async run(args, io) {
      const dir = directoryArgument(io, args.positionals[0]);
      const outcome = await withCheckpoints(io, (checkpoints) =>
        checkpoints.pin(dir, args.positionals[1] ?? '', isPinned),
      );
      if (flagOption(args, 'json')) writeLine(io.stdout, JSON.stringify(outcome));
      else if (!outcome.changed)
        writeLine(
          io.stdout,
          `Checkpoint ${outcome.id.slice(0, 8)} of ${outcome.dir} was already ${isPinned ? 'pinned' : 'not pinned'}.`,
        );
      else
        writeLine(
          io.stdout,
          isPinned
            ? `Pinned checkpoint ${outcome.id.slice(0, 8)} of ${outcome.dir}: retention and the size cap keep it.`
            : `Unpinned checkpoint ${outcome.id.slice(0, 8)} of ${outcome.dir}.`,
        );
      return exitCodes.ok;
    },
  };
}

/** `vigil checkpoints pin DIR N`. */
export const checkpointsPinCommand = pinCommand(true);
/** `vigil checkpoints unpin DIR N`. */
export const checkpointsUnpinCommand = pinCommand(false);

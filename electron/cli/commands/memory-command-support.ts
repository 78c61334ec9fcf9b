import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { MemoryMutation, MemoryMutationResult, MemoryTarget } from '../../../shared/contract/memory-contract';
import { isAppError, type AppError } from '../../../shared/errors';
import { describeMemoryUsage } from '../../../shared/tools/memory-usage-text';
import { vigilPaths } from '../../lib';
import {
  exitCodes,
  flagOption,
  stringOption,
  UsageError,
  writeLine,
  type CliArgs,
  type CliCommand,
  type CliIo,
  type CliOption,
} from '../cli-command';
import { cliHome, cliRoute } from '../cli-context';
import { memoryOf } from '../cli-services';
import { withCore, withLocalCore } from '../relay/relay-or-local';

/** The options every `vigil memory` command takes. */
export const memoryOptions: Readonly<Record<string, CliOption>> = {
  dir: { type: 'string' },
  target: { type: 'string' },
  json: { type: 'boolean' },
};

/** The help lines of the common options. */
export const memoryOptionsHelp = [
  '  --dir D            the memory directory (default $VIGIL_HOME/memories)',
  '  --target T         memory (MEMORY.md, the default) or user (USER.md)',
  '  --json             print the result (or the refusal) as one JSON document',
];

/** The `--target` option: `memory` (default) or `user`. */
export function targetOption(args: CliArgs): MemoryTarget {
  const value = stringOption(args, 'target') ?? 'memory';
  if (value !== 'memory' && value !== 'user')
    throw new UsageError(`--target takes "memory" (MEMORY.md) or "user" (USER.md), not "${value}"`);
  return value;
}

/** The memory store as a command reaches it, and the one directory the command is about. */
export interface CliMemory {
  readonly service: ReturnType<typeof memoryOf>;
  readonly dir: string;
}

/** A directory as the memory store names it: through symlinks, as far as it exists. */
async function canonicalDirectory(dir: string): Promise<string> {
  return realpath(dir).catch(() => dir);
}

/**
 * Runs `task` with the memory store for `--dir` (default $VIGIL_HOME/memories), its changes
 * checkpointed in $VIGIL_HOME's store as the app's are: the resident core's when one runs and
 * manages that directory (the UI shows the change at once), else a one-shot core's in-process.
 */
export async function withMemory<T>(args: CliArgs, io: CliIo, task: (memory: CliMemory) => Promise<T>): Promise<T> {
  const paths = vigilPaths(cliHome(io));
  const given = stringOption(args, 'dir');
  if (given === '') throw new UsageError('--dir needs a directory');
  const dir = given === undefined ? paths.memories : path.resolve(io.cwd, given);
  const run = async (service: CliMemory['service']): Promise<T> => {
    const wanted = await canonicalDirectory(dir);
    const directory = (await service.directories()).find(
      (candidate) => candidate.path === wanted || candidate.path === dir,
    );
    return task({ service, dir: directory?.path ?? dir });
  };
  return withCore(
    cliRoute(io),
    async (caller) => {
      const managed = await memoryOf(caller).directories();
      const wanted = await canonicalDirectory(dir);
      // After a fallback the caller is local, on a core that manages exactly this directory.
      if (caller.kind === 'local' || managed.some((candidate) => candidate.path === wanted || candidate.path === dir))
        return run(memoryOf(caller));
      // A folder the resident core does not manage (or no core after all): this command manages it alone, in-process.
      return withLocalCore(cliRoute(io), (local) => run(memoryOf(local)), { memoryDirectory: dir });
    },
    { memoryDirectory: dir },
  );
}

/** Prints a refusal: the message, then what the details hold that helps (entries, matches, backup, remediation). */
export function printRefusal(io: CliIo, command: string, error: AppError, isJson: boolean): number {
  if (isJson) {
    writeLine(io.stdout, JSON.stringify({ ok: false, error: error.toData() }));
    return exitCodes.failed;
  }
  writeLine(io.stderr, `vigil memory ${command}: ${error.message}`);
  const details = (error.details ?? {}) as { matches?: unknown; entries?: unknown; remediation?: unknown };
  const list = Array.isArray(details.matches)
    ? details.matches
    : Array.isArray(details.entries)
      ? details.entries
      : undefined;
  if (list !== undefined) {
    writeLine(io.stderr, Array.isArray(details.matches) ? 'Matching entries:' : 'Current entries:');
    list.forEach((entry, index) => writeLine(io.stderr, numbered(index, String(entry))));
  }
  if (typeof details.remediation === 'string') writeLine(io.stderr, details.remediation);
  return exitCodes.failed;
}

/** An entry as a numbered item, continuation lines indented under it. */
export function numbered(index: number, entry: string): string {
  const label = `${String(index + 1).padStart(3)}. `;
  return `${label}${entry.split('\n').join(`\n${' '.repeat(label.length)}`)}`;
}

/** Prints a mutation's result: its message and usage, or the whole result with --json. */
export function printResult(io: CliIo, result: MemoryMutationResult, isJson: boolean): void {
  if (isJson) {
    writeLine(io.stdout, JSON.stringify({ ok: true, value: result }));
    return;
  }
  writeLine(
    io.stdout,
    `${result.message} ${path.basename(result.file)} is at ${describeMemoryUsage(result.usage)}, ${result.entries.length} ${result.entries.length === 1 ? 'entry' : 'entries'}.`,
  );
  if (
    (result.checkpoint.status === 'created' || result.checkpoint.status === 'unchanged') &&
    result.checkpoint.id !== undefined
  ) {
    writeLine(
      io.stdout,
      `Checkpoint ${result.checkpoint.id.slice(0, 8)} holds the version before (vigil checkpoints list ${JSON.stringify(result.dir)}).`,
    );
  }
  if (result.checkpoint.status === 'failed')
    writeLine(io.stderr, `warning: ${result.checkpoint.message ?? 'the checkpoint failed'}`);
}

/** A `vigil memory add|replace|remove` command: builds the mutation from the arguments and prints the outcome. */
export function mutationCommand(
  definition: Pick<CliCommand, 'name' | 'summary' | 'usage' | 'positionals'> & {
    readonly help: readonly string[];
    readonly mutation: (positionals: readonly string[]) => MemoryMutation;
  },
): CliCommand {
  return {
    name: definition.name,
    summary: definition.summary,
    usage: definition.usage,
    positionals: definition.positionals,
    help: [
      'Options:',
      ...memoryOptionsHelp,
      '',
      ...definition.help,
      'Exit codes: 0 done (or nothing to do), 1 refused (the reason is printed), 2 wrong usage.',
    ].join('\n'),
    options: memoryOptions,
    async run(args, io) {
      const target = targetOption(args);
      const isJson = flagOption(args, 'json');
      const mutation = definition.mutation(args.positionals);
      try {
        const result = await withMemory(args, io, ({ service, dir }) =>
          service.mutate(dir, target, mutation, {
            fieldOf: (_index, property) => (property === 'oldText' ? 'OLD_SUBSTRING' : 'TEXT'),
          }),
        );
        printResult(io, result, isJson);
        return exitCodes.ok;
      } catch (error) {
        if (isAppError(error)) return printRefusal(io, definition.name, error, isJson);
        throw error;
      }
    },
  };
}

import path from 'node:path';
import type { MemoryMutation, MemoryMutationResult, MemoryTarget } from '../../../shared/contract/memory-contract';
import { isAppError, type AppError } from '../../../shared/errors';
import { describeMemoryUsage } from '../../../shared/tools/memory-tool';
import { CheckpointService } from '../../checkpoints/checkpoint-service';
import { writeLedgerFile } from '../../checkpoints/restore-service';
import { createWriteLedger, recordingWrites } from '../../checkpoints/restore-write-ledger';
import { vigilPaths, type VigilPaths } from '../../core/vigil-home';
import type { Logger } from '../../logging/logger';
import type { MemoryCheckpointer } from '../../memory/memory-checkpointer';
import { createConfiguredMemoryService } from '../../memory/configured-memory-service';
import type { MemoryService, MemoryServiceOptions } from '../../memory/memory-service';
import { exitCodes, flagOption, stringOption, UsageError, writeLine, type CliArgs, type CliCommand, type CliIo, type CliOption } from '../cli-command';
import { cliHome, cliLogger } from '../cli-context';
import { readCheckpointSettings } from '../../checkpoints/checkpoint-config';

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
  if (value !== 'memory' && value !== 'user') throw new UsageError(`--target takes "memory" (MEMORY.md) or "user" (USER.md), not "${value}"`);
  return value;
}

/** A memory service over the one directory a command is about (its limits from config.json). */
export interface CliMemory {
  readonly service: MemoryService;
  readonly dir: string;
}

/** The checkpoint engine of $VIGIL_HOME for a CLI process, reporting memory writes to the write ledger as the app does. */
export async function cliCheckpoints(paths: VigilPaths, logger: Logger): Promise<{ readonly checkpoints: MemoryCheckpointer; dispose(): Promise<void> }> {
  const engine = new CheckpointService({ root: paths.checkpoints, logger, ...(await readCheckpointSettings(paths.config)) });
  return { checkpoints: recordingWrites(engine, createWriteLedger(writeLedgerFile(paths.checkpoints), logger), logger), dispose: () => engine.dispose() };
}

/**
 * Runs `task` with a memory service for `--dir` (default $VIGIL_HOME/memories) whose changes are
 * checkpointed in $VIGIL_HOME's store, like the app's; everything is closed afterwards.
 */
export async function withMemory<T>(args: CliArgs, io: CliIo, task: (memory: CliMemory) => Promise<T>, watch?: MemoryServiceOptions['watch']): Promise<T> {
  const home = cliHome(io);
  const paths = vigilPaths(home);
  const given = stringOption(args, 'dir');
  if (given === '') throw new UsageError('--dir needs a directory');
  const dir = given === undefined ? paths.memories : path.resolve(io.cwd, given);
  const logger = cliLogger(home, io);
  const engine = await cliCheckpoints(paths, logger);
  try {
    const service = await createConfiguredMemoryService({
      paths,
      env: io.env,
      logger,
      checkpoints: engine.checkpoints,
      onlyDirectory: dir,
      ...(watch === undefined ? {} : { watch }),
    });
    try {
      const [directory] = await service.directories();
      return await task({ service, dir: directory?.path ?? dir });
    } finally {
      await service.dispose();
    }
  } finally {
    await engine.dispose();
    await logger.flush();
  }
}

/** Prints a refusal: the message, then what the details hold that helps (entries, matches, backup, remediation). */
export function printRefusal(io: CliIo, command: string, error: AppError, isJson: boolean): number {
  if (isJson) {
    writeLine(io.stdout, JSON.stringify({ ok: false, error: error.toData() }));
    return exitCodes.failed;
  }
  writeLine(io.stderr, `vigil memory ${command}: ${error.message}`);
  const details = (error.details ?? {}) as { matches?: unknown; entries?: unknown; remediation?: unknown };
  const list = Array.isArray(details.matches) ? details.matches : Array.isArray(details.entries) ? details.entries : undefined;
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
  writeLine(io.stdout, `${result.message} ${path.basename(result.file)} is at ${describeMemoryUsage(result.usage)}, ${result.entries.length} ${result.entries.length === 1 ? 'entry' : 'entries'}.`);
  if ((result.checkpoint.status === 'created' || result.checkpoint.status === 'unchanged') && result.checkpoint.id !== undefined) {
    writeLine(io.stdout, `Checkpoint ${result.checkpoint.id.slice(0, 8)} holds the version before (vigil checkpoints list ${JSON.stringify(result.dir)}).`);
  }
  if (result.checkpoint.status === 'failed') writeLine(io.stderr, `warning: ${result.checkpoint.message ?? 'the checkpoint failed'}`);
}

/** A `vigil memory add|replace|remove` command: builds the mutation from the arguments and prints the outcome. */
export function mutationCommand(definition: Pick<CliCommand, 'name' | 'summary' | 'usage' | 'positionals'> & {
  readonly help: readonly string[];
  readonly mutation: (positionals: readonly string[]) => MemoryMutation;
}): CliCommand {
  return {
    name: definition.name,
    summary: definition.summary,
    usage: definition.usage,
    positionals: definition.positionals,
    help: ['Options:', ...memoryOptionsHelp, '', ...definition.help, 'Exit codes: 0 done (or nothing to do), 1 refused (the reason is printed), 2 wrong usage.'].join('\n'),
    options: memoryOptions,
    async run(args, io) {
      const target = targetOption(args);
      const isJson = flagOption(args, 'json');
      const mutation = definition.mutation(args.positionals);
      try {
        const result = await withMemory(args, io, ({ service, dir }) => service.mutate(dir, target, mutation, { fieldOf: (_index, property) => (property === 'oldText' ? 'OLD_SUBSTRING' : 'TEXT') }));
        printResult(io, result, isJson);
        return exitCodes.ok;
      } catch (error) {
        if (isAppError(error)) return printRefusal(io, definition.name, error, isJson);
        throw error;
      }
    },
  };
}

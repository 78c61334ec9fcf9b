import { quote } from 'shell-quote';
import type { CallResponse } from '../../../shared/contract';
import { escapeControls } from '../../../shared/text/control-characters';
import { exitCodes, flagOption, writeLine, type CliCommand, type CliIo } from '../cli-command';
import type { ProgressEvent as RestoreProgress } from '../cli-services';
import { directoryArgument, localTime } from './checkpoint-command';
import { withRestoreService } from './checkpoints-diff-command';

type RestorePlan = CallResponse<'checkpoints:plan-restore'>;
type RestoreResult = CallResponse<'checkpoints:restore'>;

/** Plan lines printed before the rest is summarized (`--json` gives all). */
const maxPlanLines = 200;

const verbs = { restore: 'restore', recreate: 're-create', delete: 'delete', skip: 'skip' } as const;

function printPlan(io: CliIo, plan: RestorePlan, title: string): void {
  const { checkpoint } = plan;
  const scope = plan.paths.length === 0 ? '' : ` (only ${plan.paths.join(', ')})`;
  writeLine(io.stdout, `${title} ${escapeControls(plan.dir)}${escapeControls(scope)} to checkpoint ${checkpoint.id.slice(0, 8)}  ${localTime(checkpoint.time)}  ${escapeControls(checkpoint.reason)}`);
  if (plan.entries.length === 0) {
    writeLine(io.stdout, '  Nothing to do: every file already matches the checkpoint.');
    return;
  }
  const width = Math.min(60, Math.max(...plan.entries.map((entry) => escapeControls(entry.path).length)));
  for (const entry of plan.entries.slice(0, maxPlanLines)) {
    const why = entry.action === 'skip' ? `  ${entry.reason ?? ''}: ${escapeControls(entry.note ?? '')}` : entry.isChangedOutsideAgents ? '  ! changed outside the agents' : '';
    const name = escapeControls(entry.path);
    writeLine(io.stdout, `  ${verbs[entry.action].padEnd(9)} ${why === '' ? name : `${name.padEnd(width)}${why}`}`);
  }
  if (plan.entries.length > maxPlanLines) writeLine(io.stdout, `  … and ${plan.entries.length - maxPlanLines} more (--json lists them all)`);
  const { counts } = plan;
  writeLine(io.stdout, `${counts.restore} to restore, ${counts.recreate} to re-create, ${counts.delete} to delete, ${counts.skip} skipped.`);
  if (plan.changedOutsideAgents > 0) {
    writeLine(io.stdout, `! ${plan.changedOutsideAgents} file(s) changed outside the agents since the checkpoint (by hand, another program, or a shell command); the pre-rollback snapshot keeps their current version.`);
  }
}

/** Progress on stderr for long restores: a line every tenth of the way. */
function progressPrinter(io: CliIo): (progress: RestoreProgress) => void {
  let lastTenth = -1;
  return (progress) => {
    if (progress.phase !== 'write' || progress.total < 500) return;
    const tenth = Math.floor((progress.done / progress.total) * 10);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    writeLine(io.stderr, `restoring: ${progress.done}/${progress.total} files`);
  };
}

function printOutcome(io: CliIo, result: RestoreResult, undoNumber: number | undefined): void {
  const problems = result.outcomes.filter((outcome) => outcome.result === 'conflict' || outcome.result === 'failed');
  for (const problem of problems) writeLine(io.stdout, `  ${problem.result.padEnd(9)} ${escapeControls(problem.path)}: ${escapeControls(problem.message ?? '')}`);
  const acted = result.counts.done + result.counts.conflict + result.counts.failed;
  const target = `checkpoint ${result.plan.checkpoint.id.slice(0, 8)}: ${escapeControls(result.plan.checkpoint.reason)}`;
  if (acted === 0) writeLine(io.stdout, `✅ Nothing to restore: the directory already matches ${target}.`);
  else {
    const head = problems.length === 0 ? '✅ Restored' : '⚠ Partly restored';
    const verified = result.isVerified ? ' Every file written was read back and matches the checkpoint.' : '';
    writeLine(io.stdout, `${head} ${result.counts.done} of ${acted} file(s) to ${target}.${verified}`);
  }
  if (result.removedDirectories.length > 0) writeLine(io.stdout, `Removed ${result.removedDirectories.length} folder(s) the restore emptied: ${result.removedDirectories.map((directory) => escapeControls(directory)).join(', ')}`);
  const pre = result.preRollback.id;
  writeLine(io.stdout, `A pre-rollback snapshot of the state before was saved: ${pre.slice(0, 8)}${undoNumber === undefined ? '' : ` (checkpoint ${undoNumber})`}.`);
  writeLine(io.stdout, `Undo this restore: ${quote(['vigil', 'checkpoints', 'restore', result.plan.dir, String(undoNumber ?? pre.slice(0, 12))])}`);
}

/** `vigil checkpoints restore DIR N [FILE ...] [--dry-run] [--json]`: the seed's `/rollback N [file]`. */
export const checkpointsRestoreCommand: CliCommand = {
  name: 'restore',
  summary: 'Restore a directory (or some files) to a checkpoint; undoable through the pre-rollback snapshot.',
  usage: 'vigil checkpoints restore DIR N [FILE ...] [--dry-run] [--json]',
  help: [
    'N is a number from "vigil checkpoints list DIR" (1 = newest) or a hex id (or prefix), of a checkpoint',
    "of Vigil's or of Hermes Agent's: both are restored the same way, and the pre-rollback snapshot goes",
    "into Vigil's store (Hermes's store is only read).",
    'FILEs (files or folders, relative to DIR) limit the restore to them; without any, the whole',
    'directory is restored: changed files are written back, missing ones re-created, and files',
    'created since are deleted (the pre-rollback snapshot keeps them). Excluded and oversize files',
    '(dependencies, build output, .env*, files over the size cap) are never touched.',
    '',
    'Options:',
    '  --dry-run   print the plan and change nothing',
    '  --json      print the plan (and with a restore, the outcome) as one JSON document',
    '',
    'Every restore first saves a pre-rollback snapshot; restoring that snapshot undoes the restore.',
    'Exit codes: 0 restored (or nothing to do), 1 failed or some files could not be restored, 2 wrong usage.',
  ].join('\n'),
  options: { 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: { min: 2, max: 10_000, names: 'DIR and N (a number from "vigil checkpoints list DIR", or an id)' },
  async run(args, io) {
    const [dirArgument, ref = '', ...files] = args.positionals;
    const dir = directoryArgument(io, dirArgument);
    const isJson = flagOption(args, 'json');
    // A restore of a memory folder takes the memory locks (Vigil's and Hermes's), as in the app: the core's restore does.
    return withRestoreService(io, async (restore, engine) => {
      if (flagOption(args, 'dry-run')) {
        const plan = await restore.plan(dir, ref, files);
        if (isJson) writeLine(io.stdout, JSON.stringify(plan, null, 2));
        else {
          printPlan(io, plan, 'Plan: restore');
          writeLine(io.stdout, 'Dry run: nothing was changed. Run it again without --dry-run to restore.');
        }
        return exitCodes.ok;
      }
      const result = await restore.restore(dir, ref, files, { onProgress: isJson ? undefined : progressPrinter(io) });
      const newest = await engine.list(result.plan.dir, { limit: 20 });
      const index = newest.findIndex((entry) => entry.id === result.preRollback.id);
      if (isJson) writeLine(io.stdout, JSON.stringify(result, null, 2));
      else {
        printPlan(io, result.plan, 'Restoring');
        printOutcome(io, result, index < 0 ? undefined : index + 1);
      }
      return result.counts.conflict + result.counts.failed === 0 ? exitCodes.ok : exitCodes.failed;
    });
  },
};

import { quoteShellWords } from '../shell-words';
import type { CallResponse } from '../../../shared/contract';
import { describeActor } from '../../../shared/contract/actor-model';
import { isIncompleteOutcome, restoreWroteSecrets } from '../../../shared/contract/restore-outcomes';
import { escapeControls } from '../../../shared/text/control-characters';
import {
  exitCodes,
  flagOption,
  isTerminalInput,
  stringOption,
  writeLine,
  type CliCommand,
  type CliIo,
} from '../cli-command';
import type { ProgressEvent as RestoreProgress } from '../cli-services';
import { directoryArgument, localTime } from './checkpoint-command';
import { withRestoreService } from './checkpoints-diff-command';
import type { CliTimelines } from './checkpoints-sources';
import { runLineRestore } from './checkpoints-restore-lines';

type RestorePlan = CallResponse<'checkpoints:plan-restore'>;
type RestoreResult = CallResponse<'checkpoints:restore'>;
type RestoreOutcome = RestoreResult['outcomes'][number];

/** Plan lines printed before the rest is summarized (`--json` gives all). */
const maxPlanLines = 200;

const verbs = { restore: 'restore', recreate: 're-create', delete: 'delete', skip: 'skip' } as const;

function printPlan(io: CliIo, plan: RestorePlan, title: string): void {
  const { checkpoint } = plan;
  const scope = plan.paths.length === 0 ? '' : ` (only ${plan.paths.join(', ')})`;
  writeLine(
    io.stdout,
    `${title} ${escapeControls(plan.dir)}${escapeControls(scope)} to checkpoint ${checkpoint.id.slice(0, 8)}  ${localTime(checkpoint.time)}  ${escapeControls(checkpoint.reason)}`,
  );
  if (plan.entries.length === 0) {
    writeLine(io.stdout, '  Nothing to do: every file already matches the checkpoint.');
    return;
  }
  const width = Math.min(60, Math.max(...plan.entries.map((entry) => escapeControls(entry.path).length)));
  for (const entry of plan.entries.slice(0, maxPlanLines)) {
    const why =
      entry.action === 'skip'
        ? `  ${entry.reason ?? ''}: ${escapeControls(entry.note ?? '')}`
        : entry.isSecret === true
          ? plan.paths.includes(entry.path)
            ? '  secret: named, so written'
            : "  secret: from another program's store, written only with --secrets"
          : entry.isChangedOutsideAgents
            ? '  ! changed outside Vigil'
            : entry.changedBy === undefined
              ? ''
              : `  changed by ${escapeControls(describeActor(entry.changedBy))}`;
    const name = escapeControls(entry.path);
    writeLine(io.stdout, `  ${verbs[entry.action].padEnd(9)} ${why === '' ? name : `${name.padEnd(width)}${why}`}`);
  }
  if (plan.entries.length > maxPlanLines)
    writeLine(io.stdout, `  … and ${plan.entries.length - maxPlanLines} more (--json lists them all)`);
  const { counts } = plan;
  writeLine(
    io.stdout,
    `${counts.restore} to restore, ${counts.recreate} to re-create, ${counts.delete} to delete, ${counts.skip} skipped.`,
  );
  if (plan.changedOutsideAgents > 0) {
    writeLine(
      io.stdout,
      `! ${plan.changedOutsideAgents} file(s) changed outside Vigil since the checkpoint (by hand, in an editor, by another program); the pre-rollback snapshot keeps their current version.`,
    );
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

/** The outcome in words: "nothing to restore" only when the directory matched; "incomplete", with each file and its reason, whenever one could not be brought back. */
function printOutcome(
  io: CliIo,
  result: RestoreResult,
  problems: readonly RestoreOutcome[],
  undoNumber: number | undefined,
): void {
  const target = `checkpoint ${result.plan.checkpoint.id.slice(0, 8)}: ${escapeControls(result.plan.checkpoint.reason)}`;
  const verified = result.isVerified ? ' Every file written was read back and matches the checkpoint.' : '';
  switch (result.status) {
    case 'nothing-to-do':
      writeLine(io.stdout, `✅ Nothing to restore: the directory already matches ${target}.`);
      break;
    case 'complete':
      writeLine(io.stdout, `✅ Restored ${result.counts.done} file(s) to ${target}.${verified}`);
      break;
    case 'incomplete': {
      writeLine(
        io.stdout,
        `⚠ Restore incomplete: ${result.counts.done} of ${result.counts.done + problems.length} file(s) restored to ${target}; ${problems.length} could not be:`,
      );
      for (const problem of problems)
        writeLine(
          io.stdout,
          `  ${(problem.reason ?? problem.result).padEnd(11)} ${escapeControls(problem.path)}: ${escapeControls(problem.message ?? '')}`,
        );
      if (result.counts.done > 0 && result.isVerified)
        writeLine(io.stdout, 'Every file written was read back and matches the checkpoint.');
      if (problems.some((problem) => problem.reason === 'secret'))
        writeLine(io.stdout, 'To write the secrets files as well, restore again with --secrets.');
      break;
    }
  }
  if (result.removedDirectories.length > 0)
    writeLine(
      io.stdout,
      `Removed ${result.removedDirectories.length} folder(s) the restore emptied: ${result.removedDirectories.map((directory) => escapeControls(directory)).join(', ')}`,
    );
  const pre = result.preRollback.id;
  writeLine(
    io.stdout,
    `A pre-rollback snapshot of the state before was saved: ${pre.slice(0, 8)}${undoNumber === undefined ? '' : ` (checkpoint ${undoNumber})`}.`,
  );
  const undo = ['vigil', 'checkpoints', 'restore', result.plan.dir, String(undoNumber ?? pre.slice(0, 12))];
  writeLine(
    io.stdout,
    `Undo this restore: ${quoteShellWords(restoreWroteSecrets(result) ? [...undo, '--secrets'] : undo)}`,
  );
}

/** The outcomes that make a restore incomplete (no schema library loads to find them). */
function incompleteOutcomes(result: RestoreResult): readonly RestoreOutcome[] {
  return result.status === 'incomplete' ? result.outcomes.filter(isIncompleteOutcome) : [];
}

/** The pre-rollback snapshot's number among the newest 20 of the timeline, or undefined. */
async function undoNumberOf(engine: CliTimelines, result: RestoreResult): Promise<number | undefined> {
  const newest = await engine.list(result.plan.dir, { limit: 20 });
  const index = newest.findIndex((entry) => entry.id === result.preRollback.id);
  return index < 0 ? undefined : index + 1;
}

/** Reads one answer line from stdin. */
function readAnswer(io: CliIo): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer | string): void => {
      text += chunk.toString();
      if (text.includes('\n')) finish();
    };
    const finish = (): void => {
      io.stdin.off('data', onData);
      io.stdin.off('end', finish);
      io.stdin.pause();
      resolve(text.trim());
    };
    io.stdin.on('data', onData);
    io.stdin.once('end', finish);
  });
}

/**
 * Whether the restore may write secrets files: yes with --secrets; at a terminal, when the plan
 * (from Hermes's store) has some, the user is asked; otherwise no (they are skipped and listed).
 */
async function secretsDecision(
  io: CliIo,
  isAllowed: boolean,
  plan: (() => Promise<RestorePlan>) | undefined,
): Promise<{ readonly allowSecrets?: boolean; readonly fingerprint?: string }> {
  if (isAllowed) return { allowSecrets: true };
  if (plan === undefined || !isTerminalInput(io)) return {};
  const planned = await plan();
  const named = new Set(planned.paths);
  const secrets = planned.entries.filter(
    (entry) => entry.isSecret === true && entry.action !== 'skip' && !named.has(entry.path),
  );
  if (secrets.length === 0) return { fingerprint: planned.fingerprint };
  writeLine(
    io.stdout,
    `The checkpoint holds ${secrets.length} secrets file(s) that Vigil's own snapshots never keep: ${secrets.map((entry) => entry.path).join(', ')}.`,
  );
  io.stdout.write('Write them too? [y/N] ');
  const answer = await readAnswer(io);
  // The plan confirmed is the plan applied: if the directory moves meanwhile, the restore refuses.
  return { allowSecrets: /^y(es)?$/i.test(answer), fingerprint: planned.fingerprint };
}

/** `vigil checkpoints restore DIR N [FILE ...] [--dry-run] [--secrets] [--json]`: the seed's `/rollback N [file]`. */
export const checkpointsRestoreCommand: CliCommand = {
  name: 'restore',
  summary: 'Restore a directory (or some files) to a checkpoint; undoable through the pre-rollback snapshot.',
  usage: 'vigil checkpoints restore DIR N [FILE ...] [--lines A-B] [--dry-run] [--secrets] [--json]',
  help: [
    'N is a number from "vigil checkpoints list DIR" (1 = newest) or a hex id (or prefix), of a checkpoint',
    "of Vigil's or of Hermes Agent's: both are restored the same way, and the pre-rollback snapshot goes",
    "into Vigil's store (Hermes's store is only read). A restore brings back what the checkpoint holds, including",
    "files Vigil's own snapshots leave out (media, databases, build output in Hermes's checkpoints) when they are missing;",
    'such a file that exists with other content is left alone (the restore point could not keep it), and said so.',
    'FILEs (files or folders, relative to DIR) limit the restore to them; without any, the whole',
    'directory is restored: changed files are written back, missing ones re-created, and files',
    'created since are deleted (the pre-rollback snapshot keeps them). Excluded and oversize files',
    '(dependencies, build output, .env*, files over the size cap) are never touched.',
    '',
    'Options:',
    "  --lines A-B restore only lines A to B of the checkpoint's version of one FILE; every other line stays as it is",
    '              now (line endings, a byte-order mark and a missing final newline are kept). Lines outside the',
    '              file are refused with the valid range (exit 2); a file that is not UTF-8 text is refused (exit 1).',
    '  --dry-run   print the plan and change nothing',
    "  --secrets   also write secrets files (.env*) that only Hermes's store holds (without it, they are listed",
    '              and, at a terminal, asked about; otherwise skipped)',
    '  --json      print the plan (and with a restore, the outcome) as one JSON document',
    '',
    'Every restore first saves a pre-rollback snapshot; restoring that snapshot undoes the restore.',
    'Exit codes: 0 restored (or nothing to do), 1 failed or incomplete (each file left unrestored is listed with its',
    'reason), 2 wrong usage.',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean' },
    secrets: { type: 'boolean' },
    json: { type: 'boolean' },
    lines: { type: 'string' },
  },
  positionals: { min: 2, max: 10_000, names: 'DIR and N (a number from "vigil checkpoints list DIR", or an id)' },
  async run(args, io) {
    const [dirArgument, ref = '', ...files] = args.positionals;
    const dir = directoryArgument(io, dirArgument);
    const isJson = flagOption(args, 'json');
    const rangeText = stringOption(args, 'lines');
    if (rangeText !== undefined)
      return runLineRestore(io, { dir, ref, files, rangeText, isDryRun: flagOption(args, 'dry-run'), isJson });
    // A restore of a memory folder takes the memory locks (Vigil's and Hermes's), as in the app: the core's restore does.
    return withRestoreService(io, async (restore, engine) => {
      const isDryRun = flagOption(args, 'dry-run');
      const isAsking = !isJson && !flagOption(args, 'secrets') && isTerminalInput(io);
      // N names a checkpoint once: Hermes committing meanwhile must not make later steps see another one. A
      // restore made in one call names it once anyway, where the core reads 1–3 digits exactly as the list numbers them.
      const { id } =
        isDryRun || isAsking || !/^\s*\d{1,3}\s*$/.test(ref) ? await engine.resolve(dir, ref) : { id: ref.trim() };
      if (isDryRun) {
        const plan = await restore.plan(dir, id, files);
        if (isJson) writeLine(io.stdout, JSON.stringify(plan, null, 2));
        else {
          printPlan(io, plan, 'Plan: restore');
          writeLine(io.stdout, 'Dry run: nothing was changed. Run it again without --dry-run to restore.');
        }
        return exitCodes.ok;
      }
      const secrets = await secretsDecision(
        io,
        flagOption(args, 'secrets'),
        isJson ? undefined : () => restore.plan(dir, id, files),
      );
      const result = await restore.restore(dir, id, files, {
        onProgress: isJson ? undefined : progressPrinter(io),
        ...secrets,
      });
      // The core numbers the undo in its answer; one that does not (an older core) is asked as before.
      const { undoNumber = await undoNumberOf(engine, result), ...printed } = result;
      if (isJson) writeLine(io.stdout, JSON.stringify(printed, null, 2));
      else {
        printPlan(io, result.plan, 'Restoring');
        printOutcome(io, result, incompleteOutcomes(result), undoNumber);
      }
      return result.status === 'incomplete' ? exitCodes.failed : exitCodes.ok;
    });
  },
};

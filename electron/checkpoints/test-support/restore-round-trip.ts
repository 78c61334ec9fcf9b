import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../logging/logger';
import { seededRandom } from '../../test-support/seeded-random';
import { createPathScope } from '../compare';
import { restoreServiceFor, type RestoreResult, type RestoreService } from '../restore/restore-service';
import { isAppError } from '../../../shared/errors';
import { restoreWroteSecrets } from '../../../shared/contract/restore-outcomes';
import { RandomProject } from './random-project';
import { runGit } from './restore-fixtures';
import { restoreProblems, undoProblems } from './round-trip-checks';
import { readDisk, storedTree, type DiskState } from './round-trip-truth';
import { created, testService } from './store-fixtures';

/** How one round of the restore round trip runs. */
export interface RoundOptions {
  /** An empty folder of its own. */
  readonly base: string;
  readonly seed: number;
  /** A watching engine (as `vigil serve` runs it, the scope checked again after writing) or a one-shot one (`--local`). */
  readonly isWatching: boolean;
  /** The project is a git repository with a `.gitignore` and tracked files. */
  readonly isRepository: boolean;
  /** Restore some random paths (including ones gone or now folders) instead of the whole directory. */
  readonly isSelected: boolean;
  /** The size cap (bytes), low so that files reach it. */
  readonly cap: number;
  /** A clone is made in the project after the checkpoint, before the restore (its files judged by its own rules). */
  readonly hasClone?: boolean;
}

/** How a round went: its operation log and the broken promises found (none: it passed). */
export interface RoundResult {
  readonly log: readonly string[];
  readonly problems: readonly string[];
}

/** Makes the project a repository: ignore rules, an ignored file it tracks, an ignored one it does not. */
function makeRepository(dir: string): string[] {
  runGit(['init', '-q', dir]);
  writeFileSync(path.join(dir, '.gitignore'), '*.log\nignored/\nnode_modules/\n');
  mkdirSync(path.join(dir, 'ignored'));
  writeFileSync(path.join(dir, 'tracked.log'), 'tracked though ignored\n');
  writeFileSync(path.join(dir, 'ignored/untracked.txt'), 'ignored\n');
  return ['git init; .gitignore: *.log ignored/ node_modules/; tracked.log, ignored/untracked.txt'];
}

/** Random paths to restore: ones the checkpoint holds, ones on disk now (files or folders), sometimes a folder's path. */
function pickPaths(random: () => number, candidates: readonly string[]): string[] {
  const count = 1 + Math.floor(random() * 4);
  const picked = new Set<string>();
  for (let index = 0; index < count && candidates.length > 0; index += 1)
    picked.add(candidates[Math.floor(random() * candidates.length)] ?? '');
  return [...picked].filter((name) => name !== '');
}

/** Tracks a file the ignore rules leave out, or stops tracking one: what the repository's rules store changes. */
function changeIndex(dir: string, random: () => number, files: readonly string[]): string {
  const file = files[Math.floor(random() * files.length)];
  if (file === undefined) return '(no file to track)';
  const isTracked = runGit(['ls-files', '--', file], { cwd: dir }) !== '';
  runGit(isTracked ? ['rm', '-q', '-r', '-f', '--cached', '--', file] : ['add', '-f', '--', file], { cwd: dir });
  return `${isTracked ? 'git rm --cached' : 'git add -f'} ${file}`;
}

/**
 * Makes a random folder of the project (or a new one) a clone that tracks what is there and a file
 * the built-in names leave out: the restore, then its undo, must judge its files by its rules. (A
 * clone that ignores a file the checkpoint holds is left out: see docs/design/restore-round-trip.md.)
 */
function makeClone(dir: string, random: () => number, folders: readonly string[]): string {
  const candidates = ['clone', ...folders.filter((folder) => !folder.split('/').includes('.git'))];
  const folder = candidates[Math.floor(random() * candidates.length)] ?? 'clone';
  const top = path.join(dir, ...folder.split('/'));
  mkdirSync(top, { recursive: true });
  runGit(['init', '-q', top]);
  writeFileSync(path.join(top, 'clone-logo.png'), `png of ${folder}\n`);
  runGit(['add', '-f', '-A'], { cwd: top });
  runGit(['commit', '-q', '--allow-empty', '-m', 'clone'], { cwd: top });
  return `clone made at ${folder}, tracking what is there and clone-logo.png`;
}

/**
 * A restore that also names a path neither the checkpoint nor the disk has: refused as `not_found`
 * before anything is written (restore-plan.ts, `namedEntries`). Throws when it is not.
 */
async function refusedUnknown(restore: RestoreService, dir: string, id: string, paths: string[]): Promise<string> {
  const before = readDisk(dir);
  const unknown = 'no such/file';
  const error: unknown = await restore.restore(dir, id, [...paths, unknown]).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!isAppError(error) || error.code !== 'not_found')
    throw new Error(`"${unknown}" was not refused: ${String(error)}`);
  const changed = undoProblems(before, before, readDisk(dir));
  if (changed.length > 0) throw new Error(`a refused restore changed the disk: ${changed.join('; ')}`);
  return `restore with "${unknown}" too: refused (not_found), nothing changed`;
}

/** What undoing a round's restore needs. */
interface UndoContext {
  readonly restore: RestoreService;
  readonly gitdir: string;
  readonly dir: string;
  readonly cap: number;
}

/**
 * Undoes a restore by restoring its pre-rollback snapshot whole (as the CLI prints it) and returns
 * the problems: the disk must be as before the restore, and the undo's own result is checked as
 * any restore's is.
 */
async function undoAndCheck(
  context: UndoContext,
  before: DiskState,
  result: RestoreResult,
  log: string[],
): Promise<string[]> {
  const { restore, gitdir, dir } = context;
  const restored = readDisk(dir);
  // As the CLI prints it: with --secrets when the restore wrote a secrets file.
  const undo = await restore.restore(dir, result.preRollback.id, [], { allowSecrets: restoreWroteSecrets(result) });
  log.push(
    `undo: restore ${result.preRollback.id}: status ${undo.status}`,
    ...undo.outcomes.map((o) => `  ${o.result} ${o.action} ${o.path} ${o.message ?? ''}`),
  );
  const undone = readDisk(dir);
  const undoTruth = {
    before: restored,
    after: undone,
    checkpoint: storedTree(gitdir, result.preRollback.id),
    preRollback: storedTree(gitdir, undo.preRollback.id),
    covers: () => true,
    cap: context.cap,
  };
  return [
    ...undoProblems(before, restored, undone),
    ...restoreProblems(undoTruth, undo).map((problem) => `undo: ${problem}`),
  ];
}

/**
 * One round: a random project, checkpointed through the engine; random damage; a restore (whole or
 * of some paths) checked against the checkpoint's tree as git's CLI reads it; then the restore
 * undone (its pre-rollback snapshot restored) and the disk checked against the damaged state.
 */
export async function runRestoreRound(options: RoundOptions): Promise<RoundResult> {
  const random = seededRandom(options.seed);
  const dir = path.join(options.base, 'project');
  const home = path.join(options.base, 'home', 'checkpoints');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(options.base, 'outside.txt'), 'outside the project\n');
  mkdirSync(path.join(options.base, 'outside-dir'));
  writeFileSync(path.join(options.base, 'outside-dir', 'a.txt'), 'outside the project\n');
  const outside = readDisk(path.join(options.base, 'outside-dir'));
  const log = [`seed ${options.seed} ${options.isWatching ? 'watching' : 'one-shot'} engine`];
  if (options.isRepository) log.push(...makeRepository(dir));
  const project = new RandomProject(dir, random, options.cap);
  log.push(...project.seed());
  if (options.isRepository) runGit(['add', '-A'], { cwd: dir });
  if (options.isRepository) runGit(['add', '-f', 'tracked.log'], { cwd: dir });
  const engine = testService(home, {
    maxFileBytes: options.cap,
    ...(options.isWatching && { watch: true, verifyEveryMs: 0 }),
  });
  const restore = restoreServiceFor(engine, home, silentLogger, undefined, {
    checkScopeAfterRestore: options.isWatching,
  });
  try {
    const checkpoint = created(await engine.checkpoint(dir, { reason: 'before the agent' }));
    log.push(`checkpoint ${checkpoint.id}`);
    const steps = 1 + Math.floor(random() * 12);
    for (let index = 0; index < steps; index += 1) {
      const roll = random();
      if (roll < 0.12)
        log.push(`checkpoint (a later turn): ${(await engine.checkpoint(dir, { reason: 'turn' })).kind}`);
      else if (roll < 0.27 && options.isRepository) log.push(changeIndex(dir, random, project.list().files));
      else log.push(project.damage());
    }
    if (options.hasClone === true) log.push(makeClone(dir, random, project.list().folders));
    const before = readDisk(dir);
    const stored = storedTree(engine.gitdir, checkpoint.id);
    const paths = options.isSelected
      ? pickPaths(random, [...stored.keys(), ...before.files.keys(), ...before.folders])
      : [];
    log.push(`restore ${paths.length === 0 ? 'the whole directory' : paths.map((name) => `"${name}"`).join(' ')}`);
    if (options.isSelected && random() < 0.3) log.push(await refusedUnknown(restore, dir, checkpoint.id, paths));
    const result: RestoreResult = await restore.restore(dir, checkpoint.id, paths);
    log.push(
      ...result.outcomes.map((o) => `  ${o.result} ${o.action} ${o.path}${o.reason ? ` (${o.reason})` : ''}`),
      `  status ${result.status}, removed folders: ${result.removedDirectories.join(', ') || 'none'}`,
    );
    const restored = readDisk(dir);
    const scope = createPathScope(paths);
    const problems = restoreProblems(
      {
        before,
        after: restored,
        checkpoint: stored,
        preRollback: storedTree(engine.gitdir, result.preRollback.id),
        covers: (name) => scope.covers(name) || paths.length === 0,
        cap: options.cap,
      },
      result,
    );
    problems.push(
      ...(await undoAndCheck({ restore, gitdir: engine.gitdir, dir, cap: options.cap }, before, result, log)),
    );
    const outsideNow = readDisk(path.join(options.base, 'outside-dir'));
    problems.push(...undoProblems(outside, outside, outsideNow).map((problem) => `outside the project: ${problem}`));
    return { log, problems };
  } finally {
    await engine.dispose();
  }
}

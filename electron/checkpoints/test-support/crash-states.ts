import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isVigilTempFile } from '../../files/vigil-temp-name';
import { silentLogger } from '../../logging/logger';
import { CheckpointService } from '../checkpoint-service';
import { gitEnv, listFiles } from './restore-fixtures';

/** The store operations whose crash safety is checked. */
export type CrashOperation = 'checkpoint' | 'restore' | 'prune' | 'cut';

/** Every operation, in report order. */
export const crashOperations: readonly CrashOperation[] = ['checkpoint', 'restore', 'prune', 'cut'];

/** The two states a restore moves between: A (the checkpoint restored) and B (what the restore replaces). */
function restoreFiles(): { a: Record<string, string>; b: Record<string, string> } {
  const a: Record<string, string> = {};
  for (let index = 0; index < 40; index += 1) a[`d${index % 4}/f${index}.txt`] = `A ${index}\n`.repeat(40);
  const removed = new Set(Array.from({ length: 10 }, (_, index) => `d${(index + 30) % 4}/f${index + 30}.txt`));
  const b: Record<string, string> = Object.fromEntries(Object.entries(a).filter(([name]) => !removed.has(name)));
  for (let index = 0; index < 20; index += 1) b[`d${index % 4}/f${index}.txt`] = `B ${index}\n`.repeat(60);
  for (let index = 0; index < 10; index += 1) b[`n${index % 2}/n${index}.txt`] = `B new ${index}\n`;
  return { a, b };
}

/**
 * Per operation: the smallest retention the child runs with (so how many acknowledged checkpoints
 * must survive any cut), and the files a restore moves between.
 */
export const crashStates: Readonly<
  Record<CrashOperation, { readonly keep: number; readonly files: typeof restoreFiles }>
> = {
  checkpoint: { keep: 6, files: restoreFiles },
  prune: { keep: 4, files: restoreFiles },
  cut: { keep: 2, files: restoreFiles },
  restore: { keep: 50, files: restoreFiles },
};

/** What the child acknowledged before it was stopped (see crash-ops.child.ts). */
export interface Acknowledged {
  /** Checkpoints acknowledged, oldest first (the head before the run first, when there was one). */
  readonly checkpoints: readonly string[];
  /** The B checkpoint of the restore under way and its tree, when the kill landed in a restore. */
  readonly restoring?: { readonly id: string; readonly tree: string };
  /** The restore's pre-rollback snapshot, when the restore returned. */
  readonly restored?: string;
}

/** Reads the acknowledgements out of the child's lines (a torn last line counts for nothing). */
export function acknowledged(output: string, headBefore: string | undefined): Acknowledged {
  const lines = output.split('\n').slice(0, -1);
  const checkpoints = headBefore === undefined ? [] : [headBefore];
  let restoring: Acknowledged['restoring'];
  let restored: string | undefined;
  let lastB: { id: string; tree: string } | undefined;
  for (const line of lines) {
    const [word, id, tree] = line.split(' ');
    if (word === 'ack' && id !== undefined) checkpoints.push(id);
    if (word === 'b' && id !== undefined && tree !== undefined) {
      lastB = { id, tree };
      checkpoints.push(id);
      restored = undefined;
    }
    if (word === 'restoring') restoring = lastB;
    if (word === 'laying') restored = undefined;
    if (word === 'restored' && id !== undefined) {
      checkpoints.push(id);
      restoring = undefined;
      restored = id;
    }
  }
  return { checkpoints, restoring, restored };
}

/** Runs git fsck on the store; the problem it found, or ''. */
function fsckProblem(gitdir: string): string {
  try {
    execFileSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling', '--no-progress'], {
      env: gitEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return '';
  } catch (error) {
    // git fsck prints missing objects and broken links on stdout, other errors on stderr.
    const { stdout, stderr, status, signal } = error as {
      stdout?: Buffer;
      stderr?: Buffer;
      status?: number;
      signal?: string | null;
    };
    const lines = `${stderr?.toString() ?? ''}\n${stdout?.toString() ?? ''}`
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('notice:'));
    return `git fsck --strict failed (exit ${String(status)}${signal === undefined || signal === null ? '' : `, ${signal}`}): ${lines.slice(0, 4).join(' | ')}`;
  }
}

/** The project's files, without the temp files a killed writer leaves (the next write sweeps them). */
function projectFiles(dir: string): string[] {
  return listFiles(dir).filter((name) => !isVigilTempFile(path.basename(name)));
}

/** Whether every file of the project is its A or its B version (or absent where one of them lacks it). */
function mixedFiles(dir: string): string[] {
  const { a, b } = restoreFiles();
  const problems: string[] = [];
  const present = new Set(projectFiles(dir));
  for (const name of new Set([...Object.keys(a), ...Object.keys(b), ...present])) {
    const now = present.has(name) ? readFileSync(path.join(dir, name), 'utf8') : undefined;
    if (now !== a[name] && now !== b[name]) problems.push(`${name} is neither its A nor its B version`);
  }
  return problems;
}

/** Whether the project is exactly the given state. */
function isExactly(dir: string, files: Readonly<Record<string, string>>): boolean {
  const present = projectFiles(dir);
  if (present.join('\n') !== Object.keys(files).sort().join('\n')) return false;
  return present.every(
    (name) => existsSync(path.join(dir, name)) && readFileSync(path.join(dir, name), 'utf8') === files[name],
  );
}

/**
 * The invariants after a crash, once Vigil reopens the store (which repairs what a dead writer
 * left): git fsck --strict passes; the timeline lists every acknowledged checkpoint retention
 * keeps; a restore's undo point is whole (the pre-rollback snapshot holds exactly the state the
 * restore replaced, and nothing was written before it existed); no file is torn. Returns the
 * violations found, and the timeline's head for the next run.
 */
export async function checkAfterCrash(
  operation: CrashOperation,
  root: string,
  dir: string,
  acks: Acknowledged,
): Promise<{ readonly violations: string[]; readonly head: string | undefined }> {
  const violations: string[] = [];
  const service = new CheckpointService({ root, logger: silentLogger, retention: { maxSnapshots: 1000 } });
  try {
    const listed = await service.list(dir, { limit: 1000 });
    const ids = new Set(listed.map((entry) => entry.id));
    const problem = fsckProblem(service.gitdir);
    if (problem !== '') violations.push(problem);
    const mustSurvive = acks.checkpoints.slice(-(crashStates[operation].keep - 1));
    for (const id of mustSurvive) if (!ids.has(id)) violations.push(`acknowledged checkpoint ${id} is not listed`);
    if (operation === 'restore') violations.push(...checkRestore(dir, listed[0], acks));
    return { violations, head: listed[0]?.id };
  } finally {
    await service.dispose();
  }
}

function checkRestore(
  dir: string,
  head: { id: string; kind: string; tree: string } | undefined,
  acks: Acknowledged,
): string[] {
  const { a, b } = restoreFiles();
  if (acks.restored !== undefined) {
    if (head?.id !== acks.restored) return [`the finished restore's undo point ${acks.restored} is not the head`];
    return isExactly(dir, a) ? [] : ['the restore returned but the project is not the checkpoint it restored'];
  }
  if (acks.restoring === undefined) return [];
  const problems = mixedFiles(dir);
  if (head?.kind === 'pre-rollback' && head.id !== acks.restoring.id) {
    if (head.tree !== acks.restoring.tree)
      problems.push(`the undo point ${head.id} does not hold the state the restore replaced`);
  } else if (head?.id === acks.restoring.id) {
    if (!isExactly(dir, b)) problems.push('files changed before the undo point was made');
  } else problems.push(`the head ${head?.id ?? 'none'} is neither the B checkpoint nor an undo point`);
  return problems;
}

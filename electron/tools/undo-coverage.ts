import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { directoryExclusion, fileExclusion } from '../checkpoints';
import type { CommandAssessment, ResolvedEffect } from '../policy';
import { matchesGlob } from '../policy';
import { isPathInside } from '../lib';

/**
 * What a checkpoint cannot bring back for one call. `lost`: content the call would destroy that no
 * checkpoint stores (the repository's `.git`, `.env*` secrets, databases, media, files over the
 * size cap, a workspace root itself) — a person is asked first, told that it cannot be undone.
 * `notCovered`: what the checkpoint taken for it leaves out although nothing is lost for sure (a
 * new excluded file, whatever a program Vigil cannot see through does to excluded files) — the
 * result says so instead of claiming the checkpoint covers the call.
 */
export interface UndoCoverage {
  readonly lost: readonly string[];
  readonly notCovered: readonly string[];
}

/** The checkpoint engine's limits that decide what it stores. */
export interface CoverageLimits {
  readonly maxFileBytes: number;
}

const none: UndoCoverage = { lost: [], notCovered: [] };
/** At most this many entries of a folder a command deletes are looked at, and this many named. */
const scanBudget = 20_000;
const namedAtMost = 5;

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/** Why checkpoints do not store a path of a root, in words; undefined when they do (size aside). `regenerable` marks dependencies, build output, caches and logs. */
function exclusionOf(relative: string): { readonly why: string; readonly regenerable: boolean } | undefined {
  const parts = relative.split(/[\\/]+/u).filter((part) => part !== '' && part !== '.');
  for (const [index, part] of parts.entries()) {
    const isLast = index === parts.length - 1;
    const folder = directoryExclusion(part);
    if (folder === 'vcs')
      return {
        why: `${parts.slice(0, index + 1).join('/')} is version-control data (git's own history and state), which checkpoints do not store`,
        regenerable: false,
      };
    if (folder === 'excluded')
      return {
        why: `${parts.slice(0, index + 1).join('/')} holds dependencies, build output or caches, which checkpoints do not store`,
        regenerable: true,
      };
    if (isLast && fileExclusion(part) !== undefined) {
      if (part.startsWith('.env'))
        return { why: `${relative} is a secret file (.env*), which checkpoints never store`, regenerable: false };
      if (/\.log$/iu.test(part))
        return { why: `${relative} is a log file, which checkpoints do not store`, regenerable: true };
      return {
        why: `${relative} is a kind of file checkpoints do not store (databases, media, archives, binaries, logs)`,
        regenerable: false,
      };
    }
  }
  return undefined;
}

/** The root holding a path (innermost), if any. */
function rootOf(absolute: string, roots: readonly string[]): string | undefined {
  return roots.filter((root) => isPathInside(absolute, root)).sort((a, b) => b.length - a.length)[0];
}

async function sizeOf(
  absolute: string,
): Promise<{ readonly kind: 'file' | 'directory' | 'other'; readonly size: number } | undefined> {
  return lstat(absolute).then(
    (stats) => ({ kind: stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other', size: stats.size }),
    () => undefined,
  );
}

/**
 * `write_file` / `patch` of one path: overwriting an excluded file (`.env`, `local.db`, `.git/HEAD`)
 * or one over the size cap, or writing content over the cap (a restore never touches such a file),
 * cannot be undone; creating an excluded file is not covered (undo leaves it).
 */
export async function fileChangeCoverage(
  absolute: string,
  root: string,
  limits: CoverageLimits,
  newBytes?: number,
): Promise<UndoCoverage> {
  const relative = path.relative(root, absolute).split(path.sep).join('/');
  const excluded = exclusionOf(relative);
  const here = await sizeOf(absolute);
  const lost: string[] = [];
  const notCovered: string[] = [];
  if (here?.kind === 'file') {
    if (excluded !== undefined && !excluded.regenerable) lost.push(excluded.why);
    else if (here.size > limits.maxFileBytes)
      lost.push(
        `${relative} is ${megabytes(here.size)}, over the ${megabytes(limits.maxFileBytes)} checkpoint limit, so no checkpoint holds its current content`,
      );
    else if (newBytes !== undefined && newBytes > limits.maxFileBytes)
      lost.push(
        `the new content of ${relative} is ${megabytes(newBytes)}, over the ${megabytes(limits.maxFileBytes)} checkpoint limit, and a restore never overwrites a file that large`,
      );
    else if (excluded !== undefined) notCovered.push(excluded.why);
  } else if (excluded !== undefined) notCovered.push(`undo will not remove the new ${relative}: ${excluded.why}`);
  else if (newBytes !== undefined && newBytes > limits.maxFileBytes)
    notCovered.push(
      `undo will not remove the new ${relative}: it is over the ${megabytes(limits.maxFileBytes)} checkpoint limit`,
    );
  return { lost, notCovered };
}

/** What deleting a folder would lose that checkpoints do not store: excluded files (not dependencies or build output) and files over the cap. */
async function lostInside(folder: string, root: string, limits: CoverageLimits, skipVcs: boolean): Promise<string[]> {
  const found: string[] = [];
  let budget = scanBudget;
  let pending = [folder];
  let isCut = false;
  while (pending.length > 0 && found.length < namedAtMost) {
    const next: string[] = [];
    for (const current of pending) {
      const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (budget <= 0 || found.length >= namedAtMost) {
          isCut = budget <= 0;
          break;
        }
        budget -= 1;
        const absolute = path.join(current, entry.name);
        const relative = path.relative(root, absolute).split(path.sep).join('/');
        const excluded = exclusionOf(relative);
        if (entry.isDirectory()) {
          if (excluded === undefined) next.push(absolute);
          else if (!excluded.regenerable && !(skipVcs && directoryExclusion(entry.name) === 'vcs'))
            found.push(excluded.why);
        } else if (excluded !== undefined && !excluded.regenerable) found.push(excluded.why);
        else if (entry.isFile() && excluded === undefined) {
          const size = (await sizeOf(absolute))?.size ?? 0;
          if (size > limits.maxFileBytes)
            found.push(
              `${relative} is ${megabytes(size)}, over the ${megabytes(limits.maxFileBytes)} checkpoint limit`,
            );
        }
      }
    }
    pending = next;
  }
  if (isCut)
    found.push(
      `${path.relative(root, folder) || '.'} holds more than ${scanBudget.toLocaleString('en')} entries, too many to check what checkpoints leave out`,
    );
  return found;
}

/** Kinds of effects that destroy what is at their target (an append keeps it). */
const losingKinds = new Set(['delete', 'overwrite', 'modify', 'move', 'overwrite-if-exists']);

/** What one resolved target of an effect would lose. */
async function targetLoss(
  effect: ResolvedEffect,
  target: string,
  roots: readonly string[],
  limits: CoverageLimits,
): Promise<string[]> {
  const containedRoot = roots.find((root) => isPathInside(root, target));
  if (containedRoot !== undefined && (effect.kind === 'delete' || effect.kind === 'move')) {
    return [
      `"${effect.description}" removes the workspace root ${containedRoot} itself, with its repository, secrets and other files checkpoints do not store`,
    ];
  }
  const root = rootOf(target, roots);
  if (root === undefined) return [];
  const here = await sizeOf(target);
  if (here === undefined) return [];
  const relative = path.relative(root, target).split(path.sep).join('/');
  const excluded = exclusionOf(relative);
  if (excluded !== undefined) return excluded.regenerable ? [] : [excluded.why];
  if (here.kind === 'file')
    return here.size > limits.maxFileBytes
      ? [`${relative} is ${megabytes(here.size)}, over the ${megabytes(limits.maxFileBytes)} checkpoint limit`]
      : [];
  if (here.kind === 'directory' && (effect.kind === 'delete' || effect.kind === 'move'))
    return lostInside(target, root, limits, false);
  return [];
}

/** A glob target (`rm *.db`): the entries of its folder the pattern matches. */
async function globMatches(folder: string, pattern: string): Promise<string[]> {
  const entries = await readdir(folder).catch(() => []);
  return entries.map((name) => path.join(folder, name)).filter((candidate) => matchesGlob(candidate, pattern));
}

/** `git clean`: it deletes untracked files (ignored ones too with -x/-X), never `.git` itself. */
async function gitCleanLoss(
  effect: ResolvedEffect,
  roots: readonly string[],
  limits: CoverageLimits,
): Promise<string[]> {
  const lost: string[] = [];
  for (const target of effect.resolved) {
    const root = target.path === undefined ? undefined : rootOf(target.path, roots);
    if (target.path === undefined || root === undefined) continue;
    lost.push(
      ...(await lostInside(target.path, root, limits, true)).map(
        (why) => `"${effect.description}" may delete untracked files: ${why}`,
      ),
    );
  }
  return lost;
}

/**
 * A terminal command: its known effects that delete, overwrite, move or rewrite an excluded file,
 * a folder holding some, a file over the cap or a workspace root cannot be undone (`rm -rf .git
 * .env`, `git clean -fdx`, `cd .. && rm -rf ws`); a command that may change anything (a program
 * Vigil cannot see through) is not covered for what checkpoints leave out.
 */
export async function commandCoverage(
  assessment: CommandAssessment,
  roots: readonly string[],
  limits: CoverageLimits,
): Promise<UndoCoverage> {
  if (!assessment.isDestructive) return none;
  const lost: string[] = [];
  const notCovered: string[] = [];
  for (const effect of assessment.analysis.effects) {
    if (effect.kind === 'vcs') {
      if (effect.program === 'git clean') lost.push(...(await gitCleanLoss(effect, roots, limits)));
      else
        notCovered.push(
          `"${effect.description}" may change the repository's own state (.git), which checkpoints do not store; git keeps its history (git reflog)`,
        );
      continue;
    }
    if (!losingKinds.has(effect.kind)) continue;
    for (const target of effect.resolved) {
      if (target.path === undefined) continue;
      const paths =
        target.isGlob && target.pattern !== undefined ? await globMatches(target.path, target.pattern) : [target.path];
      for (const candidate of paths) lost.push(...(await targetLoss(effect, candidate, roots, limits)));
    }
  }
  if (assessment.isWholeDirectory) {
    notCovered.push(
      `it may change anything in the workspace: files checkpoints do not store (.git, .env*, dependencies and build output, databases, media, files over ${megabytes(limits.maxFileBytes)}) cannot be restored`,
    );
  }
  return { lost: [...new Set(lost)], notCovered: [...new Set(notCovered)] };
}

/** The parts of a prepared call that carry its coverage: what the policy asks about, what its checkpoint says it leaves out. */
export function coverageParts(coverage: UndoCoverage): {
  readonly subject: { readonly cannotUndo?: readonly string[] };
  readonly checkpoint: { readonly notCovered?: readonly string[] };
} {
  const notCovered = [...coverage.lost, ...coverage.notCovered];
  return {
    subject: coverage.lost.length > 0 ? { cannotUndo: coverage.lost } : {},
    checkpoint: notCovered.length > 0 ? { notCovered } : {},
  };
}

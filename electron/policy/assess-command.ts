import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import { canonicalPath } from '../files/canonical-path';
import { isPathInside } from '../workspace/is-path-inside';
import { analyzeCommand, destructiveKinds, type CommandAnalysis, type ResolvedEffect } from './analyze-command';

/** Where a terminal command runs and what it may reach. */
export interface CommandSetting {
  /** The resolved working directory (inside a root). */
  readonly cwd: string;
  /** The session's resolved workspace roots. */
  readonly roots: readonly string[];
  readonly home: string;
  readonly platform?: NodeJS.Platform;
}

/** A parsed terminal command, checked against the disk and the workspace. */
export interface CommandAssessment {
  readonly command: string;
  readonly cwd: string;
  readonly analysis: CommandAnalysis;
  /** It deletes, overwrites, moves or rewrites files: the executor checkpoints first. */
  readonly isDestructive: boolean;
  /** One line per destructive effect, for the checkpoint reason and the approval prompt. */
  readonly destructiveEffects: readonly string[];
  /** The workspace roots to checkpoint before it runs: the root of its cwd and of every known target. */
  readonly checkpointRoots: readonly string[];
  /** Known paths it writes outside every workspace root. */
  readonly outsideTargets: readonly string[];
}

async function exists(candidate: string): Promise<boolean> {
  return lstat(candidate).then(() => true, () => false);
}

/** Whether `cp`-like effects would replace something that exists. */
async function overwritesSomething(effect: ResolvedEffect): Promise<boolean> {
  const destination = effect.resolved[0];
  if (destination?.path === undefined) return true;
  const isDirectory = await stat(destination.path).then((stats) => stats.isDirectory(), () => false);
  if (!isDirectory) return exists(destination.path);
  const names = effect.sourceNames;
  for (const name of names) if (await exists(path.join(destination.path, name))) return true;
  return false;
}

function innermostRoot(candidate: string, roots: readonly string[]): string | undefined {
  return roots.filter((root) => isPathInside(candidate, root)).sort((a, b) => b.length - a.length)[0];
}

/**
 * Parses a terminal command (never runs it) and checks its effects on disk: whether it is
 * destructive (a `cp` only when its destination exists), which workspace roots to checkpoint, and
 * which of its known write targets lie outside the workspace (symlinks followed).
 */
export async function assessCommand(command: string, setting: CommandSetting): Promise<CommandAssessment> {
  const platform = setting.platform ?? process.platform;
  const analysis = analyzeCommand(command, { cwd: setting.cwd, home: setting.home, platform });
  const destructiveEffects: string[] = [];
  const checkpointRoots = new Set<string>();
  const outsideTargets = new Set<string>();
  const cwdRoot = innermostRoot(setting.cwd, setting.roots);
  for (const effect of analysis.effects) {
    const isDestructive = destructiveKinds.has(effect.kind) || (effect.kind === 'overwrite-if-exists' && (await overwritesSomething(effect)));
    if (isDestructive) {
      destructiveEffects.push(effect.description);
      if (cwdRoot !== undefined) checkpointRoots.add(cwdRoot);
    }
    for (const target of effect.resolved) {
      if (target.path === undefined) continue;
      const real = await canonicalPath(target.path).catch(() => target.path ?? '');
      const root = innermostRoot(target.path, setting.roots);
      const realRoot = innermostRoot(real, setting.roots);
      if (root === undefined || realRoot === undefined) outsideTargets.add(target.path);
      else if (isDestructive) checkpointRoots.add(realRoot);
    }
  }
  return {
    command,
    cwd: setting.cwd,
    analysis,
    isDestructive: destructiveEffects.length > 0,
    destructiveEffects,
    checkpointRoots: [...checkpointRoots],
    outsideTargets: [...outsideTargets],
  };
}

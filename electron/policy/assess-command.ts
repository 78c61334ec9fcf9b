import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import { canonicalPath } from '../files/canonical-path';
import { isPathInside } from '../workspace/is-path-inside';
import { protectedLocations, type ProtectedLocation } from '../workspace/protected-locations';
import { analyzeCommand, destructiveKinds, type CommandAnalysis, type ResolvedEffect } from './analyze-command';
import { resolveTarget } from './command-targets';

/** Where a terminal command runs and what it may reach. */
export interface CommandSetting {
  /** The resolved working directory (inside a root). */
  readonly cwd: string;
  /** The session's resolved workspace roots. */
  readonly roots: readonly string[];
  readonly home: string;
  readonly platform?: NodeJS.Platform;
  /** Folders the command may not change and should not read (Vigil's data folder). */
  readonly protectedPaths?: readonly string[];
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
  /** Why it must be refused beyond the hardline list (it would change Vigil's own data folder). */
  readonly refusals: readonly string[];
  /** Credential stores and protected folders it names (`cat ~/.ssh/id_ed25519`): a human decides. */
  readonly sensitive: readonly string[];
}

/** The credential stores under the home folder, and the protected folders given. */
function guardedLocations(setting: CommandSetting): readonly ProtectedLocation[] {
  const extra = setting.protectedPaths ?? [];
  return protectedLocations([setting.home], extra).filter((location) => isPathInside(location.path, setting.home) || extra.includes(location.path));
}

/** The protected locations a command's literal path arguments and redirections name. */
function namedLocations(analysis: CommandAnalysis, setting: CommandSetting, locations: readonly ProtectedLocation[]): ProtectedLocation[] {
  const place = { cwd: setting.cwd, home: setting.home, platform: setting.platform ?? process.platform };
  const words = [...analysis.invocations.flatMap((invocation) => invocation.args), ...analysis.effects.flatMap((effect) => effect.targets)];
  const named = new Map<string, ProtectedLocation>();
  for (const word of words) {
    if (!/[\\/~]|^\.|\$HOME|\$\{HOME\}/u.test(word.text)) continue;
    const target = resolveTarget(word, place);
    if (target.path === undefined) continue;
    const resolved = target.path;
    for (const location of locations) if (isPathInside(resolved, location.path)) named.set(location.path, location);
  }
  return [...named.values()];
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
  const locations = guardedLocations(setting);
  const refusals: string[] = [];
  for (const effect of analysis.effects) {
    if (!destructiveKinds.has(effect.kind) && effect.kind !== 'overwrite-if-exists') continue;
    for (const folder of setting.protectedPaths ?? []) {
      if (effect.resolved.some((target) => target.path !== undefined && (isPathInside(target.path, folder) || isPathInside(folder, target.path)))) {
        refusals.push(`"${effect.description}" would change Vigil's own data folder ${folder} (its checkpoints and session logs)`);
      }
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
    refusals: [...new Set(refusals)],
    sensitive: namedLocations(analysis, setting, locations).map((location) => `${location.path} (${location.reason})`),
  };
}

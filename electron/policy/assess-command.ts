import { canonicalPath, mapLimit } from '../files';
import { isPathInside } from '../lib';
import { protectedLocations, type ProtectedLocation } from '../workspace';
import { analyzeCommand, type CommandAnalysis, type ResolvedEffect } from './analyze-command';
import { directoryBuiltins } from './directory-change';
import { globCouldReach } from './glob-pattern';
import type { TouchedPath } from './policy-engine';
import { isUnderstood } from './read-only-programs';
import { inheritedPathConcern } from './workspace-code';

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
  /** The `PATH` the command starts with (default: this process's, which agent commands inherit). */
  readonly searchPath?: string;
}

/** A parsed terminal command, checked against the disk and the workspace. */
export interface CommandAssessment {
  readonly command: string;
  readonly cwd: string;
  readonly analysis: CommandAnalysis;
  /** It may change files (deletes, overwrites, appends, creates, runs code or programs Vigil cannot see through): the executor checkpoints first. */
  readonly isDestructive: boolean;
  /** The workspace roots to checkpoint before it runs: the root of its cwd and of every known target. */
  readonly checkpointRoots: readonly string[];
  /** The known paths inside the workspace it may change: locked while it runs, recorded for turn undo. */
  readonly changedPaths: readonly string[];
  /** It may change files it does not name (unknown targets, input it is fed, code Vigil cannot see, a program whose effects Vigil does not read): every writable root is checkpointed and locked. */
  readonly isWholeDirectory: boolean;
  /** Programs it runs whose effects on files Vigil cannot read from the line (`npm`, `make`, `git commit`, `curl -o`): they may change anything in the roots. */
  readonly unknownPrograms: readonly string[];
  /** What user rules' `path` globs are matched against: every target and every directory its programs run in. */
  readonly touched: readonly TouchedPath[];
  /** Some target or directory is only known at run time, so no `allow` rule's path can cover it. */
  readonly hasUnknownPaths: boolean;
  /** Known paths it writes outside every workspace root. */
  readonly outsideTargets: readonly string[];
  /** Why it must be refused beyond the hardline list (it would change Vigil's own data folder). */
  readonly refusals: readonly string[];
  /** Credential stores and protected folders it names (`cat ~/.ssh/id_ed25519`, `cat ~/.ss?/id*`): a human decides. */
  readonly sensitive: readonly string[];
}

/** Target paths resolved on disk at once (symlinks followed). */
const resolveConcurrency = 16;

/** The credential stores under the home folder, and the protected folders given. */
function guardedLocations(setting: CommandSetting): readonly ProtectedLocation[] {
  const extra = setting.protectedPaths ?? [];
  return protectedLocations([setting.home], extra).filter(
    (location) => isPathInside(location.path, setting.home) || extra.includes(location.path),
  );
}

/** The protected locations a command's path arguments and redirections name, or whose glob could reach them. */
function namedLocations(analysis: CommandAnalysis, locations: readonly ProtectedLocation[]): ProtectedLocation[] {
  const named = new Map<string, ProtectedLocation>();
  for (const target of analysis.namedPaths) {
    for (const location of locations) {
      const isNamed =
        target.pattern !== undefined
          ? globCouldReach(target.pattern, location.path)
          : target.path !== undefined && isPathInside(target.path, location.path);
      if (isNamed) named.set(location.path, location);
    }
  }
  return [...named.values()];
}

function innermostRoot(candidate: string, roots: readonly string[]): string | undefined {
  return roots.filter((root) => isPathInside(candidate, root)).sort((a, b) => b.length - a.length)[0];
}

/** It may change files it does not name: a target only known at run time, paths fed on its input, opaque code. */
function reachesUnnamed(effect: ResolvedEffect): boolean {
  return effect.kind === 'opaque' || effect.isInputFed || effect.resolved.some((target) => target.path === undefined);
}

/** The paths user rules see: targets and the directories programs run in (`cd` builtins aside), each with its root. */
function touchedPaths(
  analysis: CommandAnalysis,
  roots: readonly string[],
): { touched: TouchedPath[]; hasUnknownPaths: boolean } {
  const touched = new Map<string, TouchedPath>();
  let hasUnknownPaths = false;
  const add = (absolute: string | undefined, pattern?: string): void => {
    if (absolute === undefined) {
      hasUnknownPaths = true;
      return;
    }
    const root = innermostRoot(absolute, roots);
    touched.set(`${absolute}\0${pattern ?? ''}`, {
      absolute,
      root,
      pattern,
    });
  };
  for (const effect of analysis.effects) for (const target of effect.resolved) add(target.path, target.pattern);
  for (const invocation of analysis.invocations)
    if (!directoryBuiltins.has(invocation.program)) for (const cwd of invocation.cwds) add(cwd);
  return { touched: [...touched.values()], hasUnknownPaths };
}

/** The analysis, with why a plain program name may run a workspace file through the `PATH` the command inherits, if it may. */
function withInheritedPath(analysis: CommandAnalysis, setting: CommandSetting): CommandAnalysis {
  const runsPrograms = analysis.invocations.some((invocation) => !directoryBuiltins.has(invocation.program));
  const searchPath = setting.searchPath ?? process.env['PATH'] ?? '';
  const why = runsPrograms ? inheritedPathConcern(searchPath, setting.roots, setting.platform) : undefined;
  return why === undefined ? analysis : { ...analysis, runsFiles: [...analysis.runsFiles, why] };
}

/**
 * Parses a terminal command (never runs it) and checks its effects against the workspace: what
 * it changes (every effect on files checkpoints first), which workspace roots to checkpoint, which
 * known paths it changes, which of its write targets lie outside the workspace (symlinks
 * followed), and which protected locations it names.
 */
export async function assessCommand(command: string, setting: CommandSetting): Promise<CommandAssessment> {
  const platform = setting.platform ?? process.platform;
  const analysis = withInheritedPath(
    analyzeCommand(command, { cwd: setting.cwd, home: setting.home, platform }),
    setting,
  );
  const checkpointRoots = new Set<string>();
  const outsideTargets = new Set<string>();
  const changedPaths = new Set<string>();
  const cwdRoot = innermostRoot(setting.cwd, setting.roots);
  const unknownPrograms = [
    ...new Set(
      analysis.invocations.filter((invocation) => !isUnderstood(invocation)).map((invocation) => invocation.program),
    ),
  ];
  // Code from files (a script on the input, `./grep`, PATH or LD_PRELOAD set) may change anything, like an unknown program.
  const runsFiles = analysis.runsFiles.length > 0;
  const isWholeDirectory = analysis.effects.some(reachesUnnamed) || unknownPrograms.length > 0 || runsFiles;
  if (analysis.effects.length > 0 && cwdRoot !== undefined) checkpointRoots.add(cwdRoot);
  // Targets repeat across effects, directories and brace words: each distinct path is resolved once.
  const targets = [
    ...new Set(
      analysis.effects.flatMap((effect) =>
        effect.resolved.flatMap((target) => (target.path === undefined ? [] : [target.path])),
      ),
    ),
  ];
  const reals = await mapLimit(targets, resolveConcurrency, (target) => canonicalPath(target).catch(() => target));
  targets.forEach((target, index) => {
    const root = innermostRoot(target, setting.roots);
    const realRoot = innermostRoot(reals[index] ?? target, setting.roots);
    if (root === undefined || realRoot === undefined) outsideTargets.add(target);
    else {
      checkpointRoots.add(realRoot);
      changedPaths.add(target);
    }
  });
  // What may change anything can change any writable root (the sandbox makes the roots the whole truth): each is checkpointed.
  if (isWholeDirectory) for (const root of setting.roots) checkpointRoots.add(root);
  const refusals: string[] = [];
  for (const effect of analysis.effects) {
    if (effect.kind === 'opaque') continue;
    for (const folder of setting.protectedPaths ?? []) {
      if (
        effect.resolved.some(
          (target) =>
            target.path !== undefined && (isPathInside(target.path, folder) || isPathInside(folder, target.path)),
        )
      ) {
        refusals.push(
          `"${effect.description}" would change Vigil's own data folder ${folder} (its checkpoints and session logs)`,
        );
      }
    }
  }
  return {
    command,
    cwd: setting.cwd,
    analysis,
    isDestructive: analysis.effects.length > 0 || unknownPrograms.length > 0 || runsFiles,
    checkpointRoots: [...checkpointRoots],
    changedPaths: [...changedPaths],
    isWholeDirectory,
    unknownPrograms,
    ...touchedPaths(analysis, setting.roots),
    outsideTargets: [...outsideTargets],
    refusals: [...new Set(refusals)],
    sensitive: namedLocations(analysis, guardedLocations(setting)).map(
      (location) => `${location.path} (${location.reason})`,
    ),
  };
}

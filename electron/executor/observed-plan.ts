import { lstat } from 'node:fs/promises';
import type { HookTool } from '../../shared/hooks/hook-event';
import { commandCoverage, fileCall, fileChangeCoverage, type CoverageLimits } from '../tools';
import { isAppError } from '../../shared/errors';
import { canonicalPath } from '../files';
import { type FileTarget, isWholeRefused, resolveFileTarget, type WorkspaceFacts, workspaceRootOf } from '../workspace';
import { assessCommand, type CommandAssessment } from '../policy';
import type { PolicyEngine } from '../policy';
import { isPathInside } from '../lib';

/** What Vigil will do about one tool call before it runs. */
export interface CallPlan {
  readonly decision: 'allow' | 'ask' | 'deny';
  readonly reason?: string;
  /** The workspace roots to checkpoint first (none for a read-only command, nor for a refused call). */
  readonly directories: readonly string[];
  /** The files and folders it names (absolute). */
  readonly targets: readonly string[];
  /** It may change anything in its directories (a program Vigil cannot see through). */
  readonly isWholeDirectory: boolean;
  /** Roots found for paths outside the session's roots: the session gains them. */
  readonly newRoots: readonly string[];
  /** What Vigil does not supervise for it (a path outside every workspace root), in words. */
  readonly problems: readonly string[];
  /** What its checkpoint cannot bring back (excluded files it changes), in words. */
  readonly notCovered: readonly string[];
  /** File tools checkpoint before the turn's first change of a directory; shell commands before every command. */
  readonly isOncePerTurn: boolean;
}

/** Where a call is planned: the session's roots, the event's cwd, and what the policy needs. */
export interface PlanContext {
  readonly roots: readonly string[];
  readonly cwd: string;
  readonly facts: WorkspaceFacts;
  /** Vigil's own data folder: a command that would change it is refused. */
  readonly vigilHome: string;
  readonly policy: Pick<PolicyEngine, 'decide'>;
  readonly limits: CoverageLimits;
}

function unsupervised(target: string, roots: readonly string[]): string {
  return `${target} is outside the session's workspace (${roots.join(', ') || 'none'}) and in no project folder Vigil knows (a git repository, or a folder Vigil checkpoints), so Vigil did not checkpoint it: this change is unsupervised.`;
}

const newRootsOf = (found: readonly (string | undefined)[], roots: readonly string[]): string[] => [
  ...new Set(found.filter((root): root is string => root !== undefined && !roots.includes(root))),
];

/** The Vigil tool whose rules and checks an agent's file tool gets: a whole-file write, or an edit. */
const vigilFileTools: Readonly<Record<string, 'write_file' | 'patch'>> = {
  Write: 'write_file',
  NotebookEdit: 'write_file',
  write_file: 'write_file',
  Edit: 'patch',
  MultiEdit: 'patch',
  replace: 'patch',
  apply_patch: 'patch',
};

/** A refused call: nothing checkpointed, nothing recorded as a change. */
function refused(reason: string, targets: readonly string[]): CallPlan {
  return {
    decision: 'deny',
    reason,
    directories: [],
    targets,
    isWholeDirectory: false,
    newRoots: [],
    problems: [],
    notCovered: [],
    isOncePerTurn: true,
  };
}

/**
 * What an agent's own file tool loses by writing a file with more than one hard link: Claude Code
 * and Gemini CLI write in place, through every name of the file (one may be outside the workspace,
 * as pnpm's store is), and no checkpoint brings back a name outside. Vigil's own file tools replace
 * the link instead, so this is the hooks' check alone.
 */
async function hardLinkLoss(tool: string, file: string): Promise<string | undefined> {
  const stats = await lstat(file).catch(() => undefined);
  if (stats === undefined || !stats.isFile() || stats.nlink < 2) return undefined;
  return (
    `${file} has ${stats.nlink} hard links (other names for the same file, which may lie outside the workspace, as in pnpm's store): ` +
    `${tool} writes it in place, which changes the file under every name, and no checkpoint brings those back`
  );
}

/**
 * A file tool (Write, Edit, replace, …) gets exactly what Vigil's own file tools get: its path
 * resolved once and confined to the workspace (the session's roots, or the path's own project
 * folder), protected locations and Vigil's folder refused, then the user's rules and the policy, as
 * for `write_file` or `patch`. Its root is checkpointed before the turn's first change there.
 */
export async function planFileCall(tool: Extract<HookTool, { kind: 'file' }>, context: PlanContext): Promise<CallPlan> {
  const lexical = await canonicalPath(tool.path, context.cwd);
  const root = await workspaceRootOf(lexical, context.roots, context.facts);
  const workspace = {
    cwd: context.cwd,
    roots: root === undefined ? [] : [root],
    homeDir: context.facts.home,
    protectedPaths: [context.vigilHome],
  };
  const vigilTool = vigilFileTools[tool.name] ?? 'write_file';
  let target: FileTarget;
  try {
    target = await resolveFileTarget(tool.path, workspace, { tool: tool.name, mustNameFile: true });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const reason =
      error.code === 'outside_workspace'
        ? `${tool.name} of ${lexical} was refused: it is outside the session's workspace (${context.roots.join(', ') || 'none'}) and in no project folder Vigil knows (a git repository, or a folder Vigil checkpoints). File tools are confined to the workspace, as Vigil's own write_file is.`
        : `${tool.name} was refused (${error.code}): ${error.message}`;
    return refused(reason, [lexical]);
  }
  // Both only look at the target (an lstat each): at once, not one wait after the other.
  const [plain, linked] = await Promise.all([
    fileChangeCoverage(target.path, target.root, context.limits),
    hardLinkLoss(tool.name, target.path),
  ]);
  const coverage = linked === undefined ? plain : { ...plain, lost: [...plain.lost, linked] };
  // The executor's own prepare stage for a file tool: what policy sees, and what is checkpointed.
  const prepared = fileCall(vigilTool, target, () => Promise.resolve(undefined), coverage);
  const verdict = await context.policy.decide(prepared.subject);
  if (verdict.kind === 'block')
    return refused(`${tool.name} of ${target.path} was refused: ${verdict.reason}`, [target.path]);
  return {
    decision: verdict.kind,
    ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
    directories: prepared.checkpoint?.directories ?? [target.root],
    targets: [target.path],
    isWholeDirectory: false,
    newRoots: newRootsOf([target.root], context.roots),
    problems: [],
    notCovered: [...coverage.lost, ...coverage.notCovered],
    isOncePerTurn: true,
  };
}

/**
 * The directories to checkpoint before a command: the roots the assessment names, except that
 * the home folder or `/` itself is never checkpointed whole — each named target there is
 * checkpointed at its own root, and what has none is unsupervised.
 */
async function shellDirectories(
  assessment: CommandAssessment,
  context: PlanContext,
): Promise<{ directories: string[]; problems: string[] }> {
  const directories = new Set<string>();
  const problems: string[] = [];
  for (const root of assessment.checkpointRoots) {
    if (!isWholeRefused(root, context.facts.home)) {
      directories.add(root);
      continue;
    }
    if (assessment.isWholeDirectory)
      problems.push(
        `"${assessment.command}" may change anything in ${root}, which Vigil never checkpoints whole: what it changes outside a project folder is unsupervised.`,
      );
    for (const target of assessment.changedPaths.filter((candidate) => isPathInside(candidate, root))) {
      const own = await workspaceRootOf(target, [], context.facts);
      if (own === undefined) problems.push(unsupervised(target, context.roots));
      else directories.add(own);
    }
  }
  return { directories: [...directories], problems };
}

/**
 * The command assessed against the session's roots, and again with the own workspace roots of the
 * targets it names outside them (a folder Vigil checkpoints, a git work tree): those are
 * checkpointed too, and the policy sees them inside the workspace. What has no root stays outside
 * (the policy asks about writes there).
 */
async function assessWithOwnRoots(
  command: string,
  cwd: string,
  roots: readonly string[],
  context: PlanContext,
): Promise<{ readonly roots: readonly string[]; readonly assessment: CommandAssessment }> {
  const setting = { cwd, home: context.facts.home, protectedPaths: [context.vigilHome] };
  const first = await assessCommand(command, { ...setting, roots });
  const own = await Promise.all(first.outsideTargets.map((target) => workspaceRootOf(target, [], context.facts)));
  const added = newRootsOf(own, roots);
  if (added.length === 0) return { roots, assessment: first };
  const wider = [...roots, ...added];
  return { roots: wider, assessment: await assessCommand(command, { ...setting, roots: wider }) };
}

/** A shell command (Bash, run_shell_command): Vigil's policy decides, and every command that may change files is checkpointed first. */
export async function planShellCall(
  tool: Extract<HookTool, { kind: 'shell' }>,
  context: PlanContext,
): Promise<CallPlan> {
  const cwd = await canonicalPath(tool.directory ?? '.', context.cwd);
  const cwdRoot = await workspaceRootOf(cwd, context.roots, context.facts);
  const { roots, assessment } = await assessWithOwnRoots(
    tool.command,
    cwd,
    [...new Set([...context.roots, ...(cwdRoot === undefined ? [] : [cwdRoot])])],
    context,
  );
  const plain = await commandCoverage(assessment, roots, context.limits);
  const linked = await Promise.all(assessment.changedPaths.map((target) => hardLinkLoss('the command', target)));
  const lost = [...plain.lost, ...linked.filter((loss): loss is string => loss !== undefined)];
  const coverage = { ...plain, lost };
  const verdict = await context.policy.decide({
    tool: 'terminal',
    paths: [{ absolute: cwd, root: cwdRoot }],
    terminal: assessment,
    ...(coverage.lost.length === 0 ? {} : { cannotUndo: coverage.lost }),
  });
  const base = {
    targets: assessment.changedPaths,
    isWholeDirectory: assessment.isWholeDirectory,
    isOncePerTurn: false,
    notCovered: [...coverage.lost, ...coverage.notCovered],
  };
  if (verdict.kind === 'block')
    return { ...base, reason: verdict.reason, decision: 'deny', directories: [], newRoots: [], problems: [] };
  const planned = assessment.isDestructive
    ? await shellDirectories(assessment, context)
    : { directories: [], problems: [] };
  return {
    ...base,
    reason: verdict.reason,
    decision: verdict.kind,
    directories: planned.directories,
    newRoots: newRootsOf(planned.directories, context.roots),
    problems: planned.problems,
  };
}

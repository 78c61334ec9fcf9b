import { stat } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import { checkpointReasons } from '../../../shared/checkpoint-reasons';
import { defaultTerminalTimeoutMs } from '../../../shared/tools/terminal-tool';
import type { ToolInput } from '../../../shared/tools/tool-registry';
import { isPathInside } from '../../lib';
import { assessCommand, type CommandAssessment } from '../../policy';
import { describeSandboxStatus } from '../../sandbox';
import { resolveWorkspacePath } from '../../workspace';
import { pathLockKey, rootLockKey, type ExecutionSession, type LockRequest, type PreparedCall } from '../tool-adapter';
import { commandCoverage, coverageParts } from '../undo-coverage';
import { commandSubject } from './command-subject';
import { runTerminal, type TerminalSandbox } from './run';

/** The folder a command runs in: its `cwd` or the session's, confined to the workspace, and a folder. */
async function workingDirectory(
  cwd: string | undefined,
  session: ExecutionSession,
): Promise<{ absolute: string; root: string }> {
  if (cwd === undefined && session.cwd === undefined) {
    throw new AppError(
      'outside_workspace',
      'terminal was not run: the session has no working directory, because its client gave no workspace roots and no cwd. Reconnect with roots (MCP roots/list) or a ?cwd= on the URL.',
      {
        tool: 'terminal',
        roots: session.roots,
      },
    );
  }
  const resolved = await resolveWorkspacePath(cwd ?? session.cwd ?? '', session.workspace);
  const isDirectory = await stat(resolved.absolute).then(
    (stats) => stats.isDirectory(),
    () => undefined,
  );
  if (isDirectory === undefined)
    throw new AppError('not_found', `terminal was not run: the folder ${resolved.absolute} does not exist.`, {
      tool: 'terminal',
      field: 'cwd',
      path: resolved.absolute,
    });
  if (!isDirectory)
    throw new AppError(
      'wrong_kind',
      `terminal was not run: ${resolved.absolute} is a file, not a folder; give a folder as cwd.`,
      { tool: 'terminal', field: 'cwd', path: resolved.absolute },
    );
  return resolved;
}

/**
 * The keys a command holds while it runs: its session's terminal, and whole roots exclusively when
 * anything in them may change; otherwise the named paths, sharing their roots.
 */
function terminalLocks(assessment: CommandAssessment, session: ExecutionSession): LockRequest[] {
  const { isWholeDirectory } = assessment;
  const locks: LockRequest[] = [{ key: `terminal:${session.id}`, mode: 'write' }];
  const roots = isWholeDirectory
    ? session.roots.filter((root) => assessment.checkpointRoots.some((changed) => isPathInside(root, changed)))
    : assessment.checkpointRoots;
  for (const root of roots) locks.push({ key: rootLockKey(root), mode: isWholeDirectory ? 'write' : 'read' });
  if (!isWholeDirectory)
    for (const target of assessment.changedPaths) locks.push({ key: pathLockKey(target), mode: 'write' });
  return locks;
}

/**
 * `terminal`: every command runs in the OS sandbox (writable: the session's roots and its temp
 * folder; unreadable: Vigil's folder and credential stores). Where the sandbox cannot start, every
 * command asks a person, who is told why and what fixes it. The command is parsed (never run) to
 * explain it, to ask about dangerous ones and to plan checkpoints: one Vigil can read completely
 * checkpoints the roots of what it names; any other (a program Vigil cannot see through, opaque
 * code) checkpoints every writable root. A change no checkpoint can bring back asks first. Commands
 * of one session run one at a time; one that may change anything holds its roots alone.
 */
export async function prepareTerminal(
  args: ToolInput<'terminal'>,
  session: ExecutionSession,
  sandbox: TerminalSandbox,
): Promise<PreparedCall> {
  const cwd = await workingDirectory(args.cwd, session);
  const assessment = await assessCommand(args.command, {
    cwd: cwd.absolute,
    roots: session.roots,
    home: session.workspace.homeDir,
    protectedPaths: session.workspace.protectedPaths ?? [],
  });
  const status = await sandbox.status();
  const coverage = coverageParts(await commandCoverage(assessment, session.roots, session.checkpointLimits));
  const targets = assessment.changedPaths;
  const { isWholeDirectory } = assessment;
  const locks = terminalLocks(assessment, session);
  const isSandboxed = status.kind === 'ready';
  return {
    summary: commandSubject(args.command),
    subject: {
      tool: 'terminal',
      paths: [{ absolute: cwd.absolute, root: cwd.root }],
      terminal: assessment,
      ...(isSandboxed ? {} : { unsandboxed: `${describeSandboxStatus(status)}.` }),
      ...coverage.subject,
    },
    ...(assessment.isDestructive
      ? {
          checkpoint: {
            directories: assessment.checkpointRoots,
            paths: targets,
            isWholeDirectory,
            reason: checkpointReasons.beforeTerminal(commandSubject(args.command)),
            ...coverage.checkpoint,
          },
        }
      : {}),
    locks,
    cwd: cwd.absolute,
    // What it changed is found by comparing before and after: every file in the roots when it may change anything, else its named targets.
    written: [],
    ...(assessment.isDestructive ? { observe: { scope: isWholeDirectory ? session.roots : targets } } : {}),
    run: (context) =>
      runTerminal(
        {
          command: args.command,
          cwd: cwd.absolute,
          timeoutMs: args.timeout_ms ?? defaultTerminalTimeoutMs,
          isSandboxed,
        },
        session,
        sandbox,
        context.signal,
      ),
  };
}

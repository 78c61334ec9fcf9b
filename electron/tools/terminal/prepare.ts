import { stat } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import { defaultTerminalTimeoutMs, terminalOutputCapBytes } from '../../../shared/tools/terminal-tool';
import type { ToolInput } from '../../../shared/tools/tool-registry';
import { checkpointReasons } from '../../../shared/checkpoint-reasons';
import { assessCommand } from '../../policy/assess-command';
import { describeSandboxStatus, type CommandSandbox } from '../../sandbox/sandbox-api';
import { runTerminalCommand, type TerminalResult } from '../../terminal/run-terminal-command';
import { isPathInside } from '../../lib/path-rules';
import { resolveWorkspacePath } from '../../workspace/resolve-workspace-path';
import type { LockRequest } from '../../executor/lock-table';
import { pathLockKey, rootLockKey, type ExecutionSession, type ToolAdapter } from '../tool-adapter';
import { commandCoverage, coverageParts } from '../undo-coverage';

/** A command as a commit subject: its first line, at most 100 characters. */
export function commandSubject(command: string): string {
  const firstLine = command.trim().split('\n')[0] ?? '';
  const oneLine = command.trim().includes('\n') ? `${firstLine} …` : firstLine;
  return oneLine.length > 100 ? `${oneLine.slice(0, 99)}…` : oneLine;
}

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

/** Where commands run: in the OS sandbox, or (where it cannot start, after a person allowed the command) outside it. */
type TerminalSandbox = Pick<CommandSandbox, 'status' | 'prepare' | 'environment'>;

/** Runs one command: in the sandbox when it could start, otherwise as a plain shell command without Vigil's variables. */
async function runCommand(
  command: string,
  cwd: string,
  timeoutMs: number,
  session: ExecutionSession,
  sandbox: TerminalSandbox,
  isSandboxed: boolean,
  signal: AbortSignal,
): Promise<TerminalResult> {
  const base = { command, cwd, timeoutMs, outputCapBytes: terminalOutputCapBytes, signal };
  if (!isSandboxed) return runTerminalCommand({ ...base, env: sandbox.environment() });
  const prepared = await sandbox.prepare({ command, cwd, roots: session.roots, sessionId: session.id });
  try {
    return await runTerminalCommand({ ...base, env: prepared.env, launch: prepared });
  } finally {
    prepared.ended();
  }
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
export function createTerminalAdapter(sandbox: TerminalSandbox): ToolAdapter {
  return {
    name: 'terminal',
    async prepare(raw, session) {
      const args = raw as ToolInput<'terminal'>;
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
      const locks: LockRequest[] = [{ key: `terminal:${session.id}`, mode: 'write' }];
      // Whole roots exclusively when anything in them may change; otherwise the named paths, sharing their roots.
      const roots = isWholeDirectory
        ? session.roots.filter((root) => assessment.checkpointRoots.some((changed) => isPathInside(root, changed)))
        : assessment.checkpointRoots;
      for (const root of roots) locks.push({ key: rootLockKey(root), mode: isWholeDirectory ? 'write' : 'read' });
      if (!isWholeDirectory) for (const target of targets) locks.push({ key: pathLockKey(target), mode: 'write' });
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
          runCommand(
            args.command,
            cwd.absolute,
            args.timeout_ms ?? defaultTerminalTimeoutMs,
            session,
            sandbox,
            isSandboxed,
            context.signal,
          ),
      };
    },
  };
}

import { stat } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import { defaultTerminalTimeoutMs, terminalOutputCapBytes } from '../../shared/tools/terminal-tool';
import type { ToolInput } from '../../shared/tools/tool-registry';
import { checkpointReasons } from '../checkpoints/checkpoint-reasons';
import { assessCommand } from '../policy/assess-command';
import { runTerminalCommand } from '../terminal/run-terminal-command';
import { isPathInside } from '../workspace/is-path-inside';
import { resolveWorkspacePath } from '../workspace/resolve-workspace-path';
import type { LockRequest } from './lock-table';
import { pathLockKey, rootLockKey, type ExecutionSession, type ToolAdapter } from './tool-adapter';

/** A command as a commit subject: its first line, at most 100 characters. */
export function commandSubject(command: string): string {
  const firstLine = command.trim().split('\n')[0] ?? '';
  const oneLine = command.trim().includes('\n') ? `${firstLine} …` : firstLine;
  return oneLine.length > 100 ? `${oneLine.slice(0, 99)}…` : oneLine;
}

async function workingDirectory(cwd: string | undefined, session: ExecutionSession): Promise<{ absolute: string; root: string }> {
  if (cwd === undefined && session.cwd === undefined) {
    throw new AppError('outside_workspace', 'terminal was not run: the session has no working directory, because its client gave no workspace roots and no cwd. Reconnect with roots (MCP roots/list) or a ?cwd= on the URL.', {
      tool: 'terminal',
      roots: session.roots,
    });
  }
  const resolved = await resolveWorkspacePath(cwd ?? session.cwd ?? '', session.workspace);
  const isDirectory = await stat(resolved.absolute).then((stats) => stats.isDirectory(), () => undefined);
  if (isDirectory === undefined) throw new AppError('not_found', `terminal was not run: the folder ${resolved.absolute} does not exist.`, { tool: 'terminal', field: 'cwd', path: resolved.absolute });
  if (!isDirectory) throw new AppError('wrong_kind', `terminal was not run: ${resolved.absolute} is a file, not a folder; give a folder as cwd.`, { tool: 'terminal', field: 'cwd', path: resolved.absolute });
  return resolved;
}

/** The environment commands run with: CDPATH removed, so `cd sub` goes where the policy followed it. */
function commandEnvironment(): NodeJS.ProcessEnv {
  const { CDPATH: _cdpath, ...rest } = process.env;
  return rest;
}

/**
 * `terminal`: the command is parsed (never run) to find what it would change; a command that
 * changes files checkpoints every workspace root it may change. Commands of one session run one at
 * a time. A command that changes files holds the paths it names; one that may change files it does
 * not name (unknown targets, opaque code) holds its whole workspace roots, so no write of another
 * session lands in them while it runs.
 */
export const terminalAdapter: ToolAdapter = {
  name: 'terminal',
  async prepare(raw, session) {
    const args = raw as ToolInput<'terminal'>;
    const cwd = await workingDirectory(args.cwd, session);
    const assessment = await assessCommand(args.command, { cwd: cwd.absolute, roots: session.roots, home: session.workspace.homeDir, protectedPaths: session.workspace.protectedPaths ?? [] });
    const targets = assessment.changedPaths;
    const { isWholeDirectory } = assessment;
    const locks: LockRequest[] = [{ key: `terminal:${session.id}`, mode: 'write' }];
    // Whole roots exclusively when anything in them may change; otherwise the named paths, sharing their roots.
    // A command that changes no files has no checkpoint roots and no changed paths: it holds only its terminal.
    const roots = isWholeDirectory ? session.roots.filter((root) => assessment.checkpointRoots.some((changed) => isPathInside(root, changed))) : assessment.checkpointRoots;
    for (const root of roots) locks.push({ key: rootLockKey(root), mode: isWholeDirectory ? 'write' : 'read' });
    if (!isWholeDirectory) for (const target of targets) locks.push({ key: pathLockKey(target), mode: 'write' });
    return {
      summary: commandSubject(args.command),
      subject: { tool: 'terminal', paths: [{ absolute: cwd.absolute, root: cwd.root }], terminal: assessment },
      ...(assessment.isDestructive
        ? { checkpoint: { directories: assessment.checkpointRoots, paths: targets, isWholeDirectory, reason: checkpointReasons.beforeTerminal(commandSubject(args.command)) } }
        : {}),
      locks,
      cwd: cwd.absolute,
      written: targets,
      run: (context) =>
        runTerminalCommand({
          command: args.command,
          cwd: cwd.absolute,
          timeoutMs: args.timeout_ms ?? defaultTerminalTimeoutMs,
          outputCapBytes: terminalOutputCapBytes,
          env: commandEnvironment(),
          signal: context.signal,
        }),
    };
  },
};

import { stat } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import { defaultTerminalTimeoutMs, terminalOutputCapBytes } from '../../shared/tools/terminal-tool';
import type { ToolInput } from '../../shared/tools/tool-registry';
import { checkpointReasons } from '../checkpoints/checkpoint-reasons';
import { assessCommand } from '../policy/assess-command';
import { runTerminalCommand } from '../terminal/run-terminal-command';
import { isPathInside } from '../workspace/is-path-inside';
import { resolveWorkspacePath } from '../workspace/resolve-workspace-path';
import { pathLockKey, type ExecutionSession, type ToolAdapter } from './tool-adapter';

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

/**
 * `terminal`: the command is parsed (never run) to find what it would destroy; destructive ones
 * checkpoint every workspace root they may change. Commands of one session run one at a time;
 * a destructive command also holds the paths it names, so it never races a write to them.
 */
export const terminalAdapter: ToolAdapter = {
  name: 'terminal',
  async prepare(raw, session) {
    const args = raw as ToolInput<'terminal'>;
    const cwd = await workingDirectory(args.cwd, session);
    const assessment = await assessCommand(args.command, { cwd: cwd.absolute, roots: session.roots, home: session.workspace.homeDir, protectedPaths: session.workspace.protectedPaths ?? [] });
    const destructive = assessment.analysis.effects.filter((effect) => effect.kind !== 'append');
    const targets = destructive
      .flatMap((effect) => effect.resolved.map((target) => target.path))
      .filter((target): target is string => target !== undefined && session.roots.some((root) => isPathInside(target, root)));
    // Turn undo restores only these paths when every target is known; otherwise the whole folder.
    const isWholeDirectory = destructive.some((effect) => effect.resolved.some((target) => target.path === undefined) || (effect.isInputFed && effect.targets.length === 0));
    return {
      summary: commandSubject(args.command),
      subject: { tool: 'terminal', paths: [{ absolute: cwd.absolute, root: cwd.root }], terminal: assessment },
      ...(assessment.isDestructive
        ? { checkpoint: { directories: assessment.checkpointRoots, paths: targets, isWholeDirectory, reason: checkpointReasons.beforeTerminal(commandSubject(args.command)) } }
        : {}),
      locks: [{ key: `terminal:${session.id}`, mode: 'write' }, ...(assessment.isDestructive ? targets.map((target) => ({ key: pathLockKey(target), mode: 'write' as const })) : [])],
      cwd: cwd.absolute,
      written: assessment.isDestructive ? targets : [],
      run: (context) =>
        runTerminalCommand({
          command: args.command,
          cwd: cwd.absolute,
          timeoutMs: args.timeout_ms ?? defaultTerminalTimeoutMs,
          outputCapBytes: terminalOutputCapBytes,
          signal: context.signal,
        }),
    };
  },
};

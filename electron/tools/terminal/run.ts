import { terminalOutputCapBytes } from '../../../shared/tools/terminal-tool';
import type { CommandSandbox, TerminalResult } from '../../sandbox';
import type { ExecutionSession } from '../tool-adapter';

/** Where commands run: in the OS sandbox, or (where it cannot start, after a person allowed the command) outside it. */
export type TerminalSandbox = Pick<CommandSandbox, 'status' | 'run' | 'runOutside'>;

/** A command as its prepare checked it: the folder it runs in is the one resolved and confined there. */
export interface TerminalCommand {
  readonly command: string;
  /** The working directory, resolved and confined (absolute). */
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Whether the sandbox could start when the call was prepared (else a person allowed it outside). */
  readonly isSandboxed: boolean;
}

/** The `terminal` tool: runs one command in the sandbox when it could start, otherwise as a plain shell command without Vigil's variables; either way through the spawn server. */
export async function runTerminal(
  call: TerminalCommand,
  session: Pick<ExecutionSession, 'id' | 'roots'>,
  sandbox: TerminalSandbox,
  signal: AbortSignal,
): Promise<TerminalResult> {
  const { command, cwd, timeoutMs } = call;
  const base = { command, cwd, timeoutMs, outputCapBytes: terminalOutputCapBytes, signal };
  if (!call.isSandboxed) return sandbox.runOutside(base);
  return sandbox.run({ ...base, roots: session.roots, sessionId: session.id });
}

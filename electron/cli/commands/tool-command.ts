import os from 'node:os';
import path from 'node:path';
import { AppError, isAppError } from '../../../shared/errors';
import { refuseUnsafeRoots } from '../../workspace';
import type { WorkspaceContext } from '../../workspace';
import {
  exitCodes,
  stringListOption,
  stringOption,
  UsageError,
  writeLine,
  type CliCommand,
  type CliIo,
} from '../cli-command';
import { cliHome, cliRoute } from '../cli-context';
import { withCore, type ContractEvent } from '../relay/relay-or-local';

/** The agent name `vigil tool` calls are recorded under. */
const toolAgent = 'vigil tool';

/**
 * How `vigil tool` runs one call: through the tool executor, like every agent's call (validation,
 * policy, the checkpoint of its directory, the tool, the session log) — the resident core's when
 * one runs (the session shows live in its UI, where a human can approve), else a one-shot core's.
 * Resolves to the tool's output; throws the AppError of a refused or failed call.
 */
export async function runToolCall(name: string, raw: unknown, context: WorkspaceContext, io: CliIo): Promise<unknown> {
  const waiting = ({ payload: { approval } }: ContractEvent<'approvals:requested'>): void => {
    if (approval.agent !== toolAgent || approval.tool !== name) return;
    writeLine(
      io.stderr,
      `vigil tool ${name}: waiting for a decision in Vigil's UI (${approval.summary}: ${approval.reason}); denied at ${approval.expiresAt} if nobody decides.`,
    );
  };
  const outcome = await withCore(
    cliRoute(io),
    (caller) =>
      caller.call(
        'tools:run',
        { name, arguments: raw, cwd: context.cwd, roots: [...context.roots], agent: toolAgent },
        { events: ['approvals:requested'], onEvent: waiting },
      ),
    name === 'terminal' ? { runsTerminalCommand: true, alongsideCore: loadSandboxEngine } : {},
  );
  for (const checkpoint of outcome.checkpoints) {
    if (checkpoint.kind === 'created')
      writeLine(
        io.stderr,
        `vigil tool ${name}: checkpoint ${checkpoint.checkpointId?.slice(0, 8) ?? ''} of ${checkpoint.directory} taken before the call.`,
      );
    for (const gap of checkpoint.notCovered ?? [])
      writeLine(io.stderr, `vigil tool ${name}: not covered by the checkpoint, so it cannot be undone: ${gap}`);
  }
  for (const problem of outcome.checkpointProblems) writeLine(io.stderr, `vigil tool ${name}: ${problem}`);
  if (outcome.result.ok) return outcome.result.value;
  const { code, message, details } = outcome.result.error;
  throw new AppError(code, message, details);
}

/** Loads the sandbox engine's modules (as large as the one-shot core's) while the core loads; its failure is the wrap's to report. */
function loadSandboxEngine(): void {
  // Its lazy face is loaded lazily too: a relayed call does not load it.
  import('../../sandbox/lazy')
    .then(({ loadEngineImport }) => loadEngineImport())
    .then(({ importEngine }) => importEngine())
    .catch(() => undefined);
}

/** Reads a stream to its end as UTF-8 text. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The call's arguments from `--args JSON` (or `--args -`: standard input). */
async function readArguments(value: string | undefined, io: CliIo): Promise<unknown> {
  if (value === undefined)
    throw new UsageError("give the tool's arguments with --args JSON (or --args - to read them from standard input)");
  const text = value === '-' ? await readAll(io.stdin) : value;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`--args is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** `vigil tool NAME --args JSON`: calls an agent tool exactly as an agent would and prints its result. */
export const toolCommand: CliCommand = {
  name: 'tool',
  summary:
    'Call an agent tool (read_file, write_file, patch, terminal, memory) as an agent would; print the result as JSON.',
  usage: 'vigil tool NAME --args JSON [--cwd DIR] [--root DIR ...]',
  help: [
    "Runs the call through the tool executor, like an agent's call: validates JSON with the tool's own",
    'schema (a missing field is refused, never defaulted), confines every path to the workspace roots,',
    'applies the policy of config.json (a call that needs a human waits for one in the UI when the app or',
    '"vigil serve" runs, and is denied at once otherwise: nobody can approve here),',
    'checkpoints the directory before a change, runs the tool and prints its result as JSON on standard',
    'output. The call is logged as a session of its own ("vigil sessions list").',
    'A tool error is printed as {"error": {code, message, details}} on standard output and its message',
    'on standard error.',
    '',
    'Options:',
    '  --args JSON   the tool\'s arguments as one JSON object; "-" reads them from standard input',
    "  --cwd DIR     the session's working directory, for relative paths (default: the current one)",
    '  --root DIR    a workspace root; repeat for several (default: the --cwd directory)',
    '',
    'Example: vigil tool write_file --args \'{"path": "notes.md", "content": "# Notes\\n"}\'',
    '',
    'Exit codes: 0 the tool succeeded, 1 the tool refused or failed, 2 wrong usage.',
  ].join('\n'),
  options: {
    args: { type: 'string' },
    cwd: { type: 'string' },
    root: { type: 'string', multiple: true },
  },
  positionals: { min: 1, max: 1, names: 'NAME' },
  async run(args, io) {
    const name = args.positionals[0] ?? '';
    const raw = await readArguments(stringOption(args, 'args'), io);
    const cwd = path.resolve(io.cwd, stringOption(args, 'cwd') ?? '.');
    const roots = stringListOption(args, 'root').map((root) => path.resolve(io.cwd, root));
    const context: WorkspaceContext = {
      cwd,
      roots: roots.length > 0 ? roots : [cwd],
      homeDir: io.env['HOME'] ?? io.env['USERPROFILE'] ?? os.homedir(),
      protectedPaths: [cliHome(io)],
    };
    try {
      refuseUnsafeRoots(context.roots, { home: context.homeDir, protectedPaths: context.protectedPaths ?? [] });
      writeLine(io.stdout, JSON.stringify(await runToolCall(name, raw, context, io), null, 2));
      return exitCodes.ok;
    } catch (error) {
      if (!isAppError(error)) throw error;
      writeLine(io.stdout, JSON.stringify({ error: error.toData() }, null, 2));
      writeLine(io.stderr, `vigil tool ${name}: ${error.message}`);
      return exitCodes.failed;
    }
  },
};

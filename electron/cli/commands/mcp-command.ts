import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { AppError } from '../../../shared/errors';
import { vigilPaths } from '../../lib';
import { loadMcpStdioBridge, loadStdio } from '../../gateway/lazy';
import { stringOption, UsageError, writeLine, type CliCommand, type CliIo } from '../cli-command';
import { cliHome, cliLogger } from '../cli-context';
import { findCore } from '../relay/relay-or-local';
import { loadAgentCredentials } from '../../server/lazy';

/** Resolves when the process is asked to stop. */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve());
  });
}

/** Whatever still runs once the session has ended (a stuck handle), the process exits within 2 s of stdin's end. */
function exitSoonAfter(code: number, shutdownBudgetMs: number): number {
  setTimeout(() => process.exit(code), 2_000 - shutdownBudgetMs).unref();
  return code;
}

function streams(io: CliIo): { readonly stdin: Readable; readonly stdout: Writable } {
  if (!(io.stdin instanceof Readable) || !(io.stdout instanceof Writable)) {
    throw new AppError('unsupported', 'vigil mcp needs real stdin and stdout streams.');
  }
  return { stdin: io.stdin, stdout: io.stdout };
}

async function workingDirectory(io: CliIo, given: string | undefined): Promise<string> {
  const cwd = path.resolve(io.cwd, given ?? '.');
  const info = await stat(cwd).catch(() => undefined);
  if (info === undefined) throw new UsageError(`--cwd ${cwd} does not exist`);
  if (!info.isDirectory()) throw new UsageError(`--cwd ${cwd} is not a directory`);
  return cwd;
}

/** The agent credential `vigil mcp` relays with (`vigil connect --revoke mcp-stdio` rotates it). */
export const stdioCredentialName = 'mcp-stdio';

/**
 * `vigil mcp`: Vigil's tools for MCP clients that spawn their servers (stdio). It relays to the
 * running supervisor (found through serve.json) with its own agent credential from the store, so
 * the session shows up live in its UI; the client on stdio never sees a credential. When none
 * runs, it serves from an embedded core on the same data folder and says so on stderr.
 */
export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: "Serve Vigil's tools to an MCP client over stdio (for clients that spawn their servers).",
  usage: 'vigil mcp [--cwd D] [--agent NAME]',
  help: [
    'Options:',
    '  --cwd D       the workspace when the client reports no MCP roots (default: the current directory)',
    '  --agent NAME  the agent name shown in Vigil (default: the name the client gives)',
    '',
    'Speaks MCP on stdin/stdout; messages for humans go to stderr. A message over 16 MB is answered with an',
    'error naming the limit (or, when it has no id, ends the process with status 1); the end of stdin ends the',
    'process within 2 s. With "vigil serve" running on the same',
    'VIGIL_HOME it forwards to that server (the session appears live in its UI); otherwise it runs the',
    'same tools on an embedded core and stores checkpoints and sessions in the same data folder.',
    '',
    'It relays with the agent credential "mcp-stdio" from $VIGIL_HOME/agent-credentials.json (made on first use),',
    "never the UI's; nothing secret is passed in its arguments or environment, or shown to the client.",
    '',
    '"vigil connect hermes|claude-code|gemini-cli|cursor|vscode|codex" prints (and with --write adds) the exact entry for a client.',
    '',
    'Turns: mark them with _meta["vigil/turn"] on tools/call (an id, or { "id", "userMessage" });',
    'without it, a turn is a burst of calls separated by 30 s of quiet.',
  ].join('\n'),
  options: {
    cwd: { type: 'string' },
    agent: { type: 'string' },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(args, io) {
    const { stdin, stdout } = streams(io);
    const cwd = await workingDirectory(io, stringOption(args, 'cwd'));
    const agent = stringOption(args, 'agent');
    if (agent?.trim() === '') throw new UsageError('--agent needs a name');
    const home = cliHome(io);
    const paths = vigilPaths(home);
    // The one rule every relaying command follows (relay-or-local.ts), starting no background core:
    // its session would end when the app or `vigil serve` took that core's place.
    const live = await findCore({
      home,
      env: io.env,
      say: (line) => writeLine(io.stderr, `vigil mcp: ${line}`),
      isLocal: io.forceLocal === true,
      mayStart: false,
    });
    const { StdioMessageTransport, maxMcpBodyBytes, runStdioSession, stdioShutdownBudgetMs } = await loadStdio();
    const stdio = new StdioMessageTransport({ stdin, stdout, maxMessageBytes: maxMcpBodyBytes });
    const session = { stdio, stop: untilSignal(), report: (line: string) => writeLine(io.stderr, line) };
    if (live !== undefined) {
      const url = new URL('/mcp', live.origin);
      url.searchParams.set('cwd', cwd);
      if (agent !== undefined) url.searchParams.set('agent', agent);
      // The bridge's own agent credential, read from the store: never the UI's, never in argv or the environment.
      const { AgentCredentialStore } = await loadAgentCredentials();
      const credential = await new AgentCredentialStore(paths.agentCredentials).issue(stdioCredentialName);
      writeLine(
        io.stderr,
        `vigil mcp: relaying to Vigil at ${url.origin} (pid ${live.pid}); this session shows live in its UI.`,
      );
      const { startMcpStdioBridge } = await loadMcpStdioBridge();
      return exitSoonAfter(
        await runStdioSession({
          ...session,
          serve: () =>
            startMcpStdioBridge({ url, token: credential.secret, downstream: stdio, report: session.report }),
        }),
        stdioShutdownBudgetMs,
      );
    }
    writeLine(
      io.stderr,
      `vigil mcp: no running Vigil found (${paths.serveInfo}); serving with an embedded core on ${home}. ` +
        'Start "vigil serve" to watch sessions live and to approve commands that need a human.',
    );
    // No UI can reach an embedded core, so nobody could answer an approval: such calls are denied at once.
    const { createCore } = await import('../../core');
    const core = await createCore({ home, logger: cliLogger(home, io), canAsk: false });
    const serve = async (): Promise<() => Promise<void>> => {
      const server = await core.gateway.connectMcp(stdio, { cwd, agent }).catch(async (error: unknown) => {
        await core.dispose();
        throw error;
      });
      return async () => {
        await server.close().finally(() => core.dispose());
      };
    };
    return exitSoonAfter(await runStdioSession({ ...session, serve }), stdioShutdownBudgetMs);
  },
};

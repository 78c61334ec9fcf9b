import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { AppError } from '../../../shared/errors';
import { vigilPaths } from '../../core/vigil-home';
import { untilInputEnds } from '../../gateway/until-input-ends';
import { exitCodes, stringOption, UsageError, writeLine, type CliCommand, type CliIo } from '../cli-command';
import { cliHome, cliLogger } from '../cli-context';

/** Resolves when the client closes stdin or the process is asked to stop. */
function untilDone(stdin: Readable): Promise<void> {
  return new Promise((resolve) => {
    void untilInputEnds(stdin).then(resolve);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve());
  });
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

/**
 * `vigil mcp`: Vigil's tools for MCP clients that spawn their servers (stdio). It relays to the
 * running supervisor (found through serve.json) so the session shows up live in its UI; when none
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
    'Speaks MCP on stdin/stdout; messages for humans go to stderr. With "vigil serve" running on the same',
    'VIGIL_HOME it forwards to that server (the session appears live in its UI); otherwise it runs the',
    'same tools on an embedded core and stores checkpoints and sessions in the same data folder.',
    '',
    'Claude Code (.mcp.json):',
    '  { "mcpServers": { "vigil": { "command": "vigil", "args": ["mcp"] } } }',
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
    // Loaded here, not at start-up: its schema library is not on the path of the other commands.
    const { readLiveServeInfo } = await import('../../server/serve-info');
    const live = io.forceLocal === true ? undefined : await readLiveServeInfo(paths.serveInfo);
    const done = untilDone(stdin);
    if (live !== undefined && live.url !== null) {
      const url = new URL('/mcp', live.url);
      url.searchParams.set('cwd', cwd);
      if (agent !== undefined) url.searchParams.set('agent', agent);
      writeLine(io.stderr, `vigil mcp: relaying to Vigil at ${url.origin} (pid ${live.pid}); this session shows live in its UI.`);
      const { runMcpStdioBridge } = await import('../../gateway/mcp-stdio-bridge');
      await runMcpStdioBridge({ url, token: live.token, stdin, stdout, stop: done, report: (line) => writeLine(io.stderr, line) });
      return exitCodes.ok;
    }
    writeLine(
      io.stderr,
      `vigil mcp: no running Vigil found (${paths.serveInfo}); serving with an embedded core on ${home}. ` +
        'Start "vigil serve" to watch sessions live and to approve commands that need a human.',
    );
    // No UI can reach an embedded core, so nobody could answer an approval: such calls are denied at once.
    const [{ createCore }, { StdioServerTransport }] = await Promise.all([import('../../core/create-core'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
    const core = await createCore({ home, logger: cliLogger(home, io), canAsk: false });
    try {
      const server = await core.gateway.connectMcp(new StdioServerTransport(stdin, stdout), { cwd, agent });
      await done;
      await server.close();
    } finally {
      await core.dispose();
    }
    return exitCodes.ok;
  },
};

import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSandboxApi } from '../../sandbox/lazy';
import { loadServerAuth, loadStartServe } from '../../server/lazy';
import { exitCodes, flagOption, stringOption, UsageError, writeLine, type CliCommand } from '../cli-command';
import { cliHome, cliLogger } from '../cli-context';

/** The default port of `vigil serve`, stable so that SSH tunnels and bookmarks keep working. */
export const defaultServePort = 7420;

/** The built renderer beside the built CLI (`out/renderer` next to `out/main`), if it was built. */
async function findRendererDir(): Promise<string | undefined> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [
    path.resolve(here, '../renderer'),
    path.resolve(here, '../../out/renderer'),
    path.resolve(here, '../../../out/renderer'),
  ]) {
    if (
      await access(path.join(candidate, 'index.html')).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return defaultServePort;
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new UsageError(`--port takes a number from 0 to 65535 (0 picks a free port), not "${value}"`);
  }
  return Number(value);
}

/** Resolves when the process is asked to stop. */
function untilStopped(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve(signal));
  });
}

/** `vigil serve`: the headless server with the UI, its contract and the agent gateway. */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Serve the Vigil UI and the agent gateway over HTTP on loopback.',
  usage: 'vigil serve [--port N] [--host H] [--allow-remote]',
  help: [
    'Options:',
    `  --port N        port to listen on (default ${defaultServePort}; 0 picks a free port)`,
    '  --host H        address to bind (default 127.0.0.1)',
    "  --allow-remote  allow a non-loopback --host (anyone who can reach it and has the UI's token gets full control)",
    '',
    "Prints the URL once, with the page's access token in its #token= fragment; it is stored nowhere else and alone",
    "approves held-back commands. $VIGIL_HOME/serve.json (mode 0600) holds the CLI's token for your own scripts",
    '("Authorization: Bearer <token>"), which cannot approve. Both reach only /ws, the UI\'s channel; agents',
    'connect with their own credentials instead: see "vigil connect --help".',
    'To use Vigil on a remote machine, keep the default host and tunnel: ssh -L 7420:127.0.0.1:7420 host',
  ].join('\n'),
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-remote': { type: 'boolean' },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(args, io) {
    const port = parsePort(stringOption(args, 'port'));
    const host = stringOption(args, 'host') ?? '127.0.0.1';
    const { isLoopbackHost } = await loadServerAuth();
    const allowRemote = flagOption(args, 'allow-remote');
    if (!isLoopbackHost(host) && !allowRemote) {
      throw new UsageError(
        `refusing to bind ${host}: Vigil listens on loopback only. Use an SSH tunnel, or add --allow-remote if you really mean it`,
      );
    }
    if (!isLoopbackHost(host)) {
      writeLine(
        io.stderr,
        `WARNING: listening on ${host}, not loopback. Anyone who can reach this address and learns the token controls Vigil and the files of its agents.`,
      );
    }
    const home = cliHome(io);
    const logger = cliLogger(home, io);
    const rendererDir = await findRendererDir();
    if (rendererDir === undefined) {
      writeLine(
        io.stderr,
        'vigil serve: the UI is not built, so only the API is served. Run "npm run build" in the Vigil checkout.',
      );
    }
    const { startServe } = await loadStartServe();
    const running = await startServe({ home, host, port, allowRemote, rendererDir, logger });
    writeLine(io.stdout, `Vigil is serving on ${running.http.baseUrl} (data folder ${home}).`);
    const sandbox = await running.core.sandbox.status();
    const { describeSandboxStatus } = await loadSandboxApi();
    if (sandbox.kind === 'ready') writeLine(io.stdout, `Agent commands run in the OS sandbox (${sandbox.engine}).`);
    else writeLine(io.stdout, `WARNING: ${describeSandboxStatus(sandbox)}`);
    writeLine(
      io.stdout,
      "Open this URL (its #token= fragment is the page's own access token, which never leaves your browser tab and is stored nowhere else: the one in serve.json cannot approve):",
    );
    writeLine(io.stdout, `url: ${running.http.url}`);
    writeLine(io.stdout, 'Stop with Ctrl+C.');
    const signal = await untilStopped();
    logger.info('stopping', { signal });
    await running.close();
    return exitCodes.ok;
  },
};

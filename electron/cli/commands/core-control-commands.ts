import { withoutCredential } from '../../../shared/ui-credential';
import { vigilPaths } from '../../lib';
import { loadStopProcess } from '../../lib/lazy';
import { exitCodes, flagOption, writeLine, type CliCommand } from '../cli-command';
import { cliHome } from '../cli-context';
import { loadServeInfo } from '../../server/lazy';

/** What `vigil core status` reports. */
type CoreStatus =
  | { readonly state: 'none'; readonly home: string }
  | {
      readonly state: 'background' | 'app-or-serve' | 'starting';
      readonly home: string;
      readonly pid: number;
      readonly url: string | null;
      readonly version: string;
      readonly startedAt: string;
    };

async function coreStatus(home: string): Promise<CoreStatus> {
  const { readLiveServeInfo } = await loadServeInfo();
  const info = await readLiveServeInfo(vigilPaths(home).serveInfo);
  if (info === undefined) return { state: 'none', home };
  const state = info.background === true ? 'background' : info.url === null ? 'starting' : 'app-or-serve';
  const url = info.url === null ? null : withoutCredential(info.url);
  return { state, home, pid: info.pid, url, version: info.version, startedAt: info.startedAt };
}

function describe(status: CoreStatus): string {
  if (status.state === 'none')
    return `No core runs on ${status.home}: the next command that reads or changes the store starts one.`;
  const where = status.url === null ? '' : ` on ${status.url}`;
  const what =
    status.state === 'background'
      ? 'A background core'
      : status.state === 'starting'
        ? 'A core (still starting)'
        : 'The desktop app or "vigil serve"';
  return `${what} (pid ${status.pid}, Vigil ${status.version}, since ${status.startedAt}) serves ${status.home}${where}.`;
}

/** `vigil core status`: which core serves this data folder, if any. */
export const coreStatusCommand: CliCommand = {
  name: 'status',
  summary: 'Show the core that serves this data folder: background, the app or "vigil serve", or none.',
  usage: 'vigil core status [--json]',
  help: 'Reads serve.json (nothing is started). Options:\n  --json  print the status as one JSON document',
  options: { json: { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(args, io) {
    const status = await coreStatus(cliHome(io));
    writeLine(io.stdout, flagOption(args, 'json') ? JSON.stringify(status) : describe(status));
    return exitCodes.ok;
  },
};

/** `vigil core stop`: stops the background core of this data folder. */
export const coreStopCommand: CliCommand = {
  name: 'stop',
  summary: 'Stop the background core of this data folder (never the app or "vigil serve").',
  usage: 'vigil core stop',
  help: [
    'Asks the background core to stop (SIGTERM: calls it is answering get 5 s to finish), and kills it if it',
    'has not stopped within 10 s. The desktop app and "vigil serve" are left alone: stop them where they run.',
    'The next command that reads or changes the store starts a new one, unless VIGIL_NO_CORE=1 or',
    'core.autoStart is false in config.json.',
  ].join('\n'),
  options: {},
  positionals: { min: 0, max: 0, names: '' },
  async run(_args, io) {
    const status = await coreStatus(cliHome(io));
    if (status.state === 'none') {
      writeLine(io.stdout, `No background core runs on ${status.home}.`);
      return exitCodes.ok;
    }
    if (status.state !== 'background') {
      writeLine(
        io.stderr,
        `vigil core stop: pid ${status.pid} is the desktop app or "vigil serve", not a background core; stop it where it runs (Ctrl+C).`,
      );
      return exitCodes.failed;
    }
    const { stopProcess } = await loadStopProcess();
    if (!(await stopProcess(status.pid, 10_000))) {
      writeLine(io.stderr, `vigil core stop: the background core (pid ${status.pid}) did not stop, even when killed.`);
      return exitCodes.failed;
    }
    writeLine(io.stdout, `Stopped the background core (pid ${status.pid}) of ${status.home}.`);
    return exitCodes.ok;
  },
};

/** `vigil core start`: makes sure a core serves this data folder, starting a background one if none does. */
export const coreStartCommand: CliCommand = {
  name: 'start',
  summary: 'Start the background core now (commands otherwise start it on first use).',
  usage: 'vigil core start',
  help: [
    'Starts a background core for this data folder unless a core already serves it, and waits until it is',
    'ready (core.startTimeoutSeconds, default 10 s). A stale one (its pid gone, another version of Vigil) is replaced, saying so.',
    'Runs even with VIGIL_NO_CORE=1 or core.autoStart false: it is asked for by name.',
  ].join('\n'),
  options: {},
  positionals: { min: 0, max: 0, names: '' },
  async run(_args, io) {
    const home = cliHome(io);
    const { startBackgroundCore } = await import('../relay/start-background-core');
    const { readAutoStartSettings } = await import('../relay/auto-start-policy');
    const waitMs = (await readAutoStartSettings(vigilPaths(home).config)).startTimeoutMs;
    const say = (line: string): void => writeLine(io.stderr, `vigil core start: ${line}`);
    const core = await startBackgroundCore({ home, env: io.env, say, waitMs, isExplicit: true });
    if (core === undefined) return exitCodes.failed;
    writeLine(io.stdout, describe(await coreStatus(home)));
    return exitCodes.ok;
  },
};

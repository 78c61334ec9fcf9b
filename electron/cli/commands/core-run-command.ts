import { exitCodes, writeLine, type CliCommand } from '../cli-command';
import { cliHome, cliLogger } from '../cli-context';
import { loadBackgroundCore } from '../../server/lazy';

/** Resolves with the signal when the process is asked to stop (listened for from the start, so a stop during start-up is not lost). */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve(signal));
  });
}

/** `vigil core run`: the background core in this process (what a command that finds no core starts, detached). */
export const coreRunCommand: CliCommand = {
  name: 'run',
  summary: 'Run the background core in this process until it is idle or stopped.',
  usage: 'vigil core run',
  help: [
    "Serves this data folder's core on a free loopback port (no UI), recorded in serve.json as a background",
    'core, and exits after core.idleMinutes (config.json, default 30) without a client, on Ctrl+C or SIGTERM,',
    'when the desktop app or "vigil serve" starts on the same data folder and takes its place, or when its',
    'serve.json is gone (the data folder deleted) or names another core.',
    'Commands start it by themselves (detached, its output in $VIGIL_HOME/logs/core.log): you rarely',
    'need to run it. Of two started at once, one serves and the other exits (status 1, "busy").',
  ].join('\n'),
  options: {},
  positionals: { min: 0, max: 0, names: '' },
  async run(_args, io) {
    const stopped = untilSignal();
    const home = cliHome(io);
    const logger = cliLogger(home, io);
    const { startBackgroundCore } = await loadBackgroundCore();
    const core = await startBackgroundCore({ home, logger, env: io.env });
    writeLine(
      io.stdout,
      `Vigil background core (pid ${process.pid}) serving ${home} on ${core.baseUrl}; exits after ${core.idleMinutes} minutes without a client.`,
    );
    logger.info('background core serving', { url: core.baseUrl, idleMinutes: core.idleMinutes });
    const reason = await Promise.race([stopped, core.idle.then(() => 'idle' as const), core.displaced]);
    logger.info('background core stopping', { reason });
    writeLine(io.stdout, `Vigil background core (pid ${process.pid}) stopping: ${reason}.`);
    await core.close();
    return exitCodes.ok;
  },
};

import { escapeControls } from '../../shared/text/control-characters';
import { resolveVigilHome, vigilPaths } from '../lib';
import { createFileLogger, type Logger } from '../logging';
import type { CliIo } from './cli-command';
import { writeLine } from './cli-command';
import type { CoreRoute } from './relay/relay-or-local';

/** The data folder every command uses: VIGIL_HOME, else ~/.vigil. */
export function cliHome(io: CliIo): string {
  return resolveVigilHome(io.env);
}

/** Writes a log line to stderr with its control characters shown, not acted on. */
function cliEcho(io: CliIo): (line: string) => void {
  return (line) => io.stderr.write(escapeControls(line, { keepLineBreaks: true }));
}

/** A logger writing to $VIGIL_HOME/logs and echoing warnings and errors to stderr. */
export function cliLogger(home: string, io: CliIo): Logger {
  return createFileLogger({ directory: vigilPaths(home).logs, echo: { level: 'warn', write: cliEcho(io) } });
}

/**
 * Where a command's contract calls go (relay-or-local.ts): the core of its data folder, a
 * background core when it is a real `vigil` process (`io.mayStartCore`), in-process with `--local`.
 */
export function cliRoute(io: CliIo): CoreRoute {
  return {
    home: cliHome(io),
    env: io.env,
    say: (line) => writeLine(io.stderr, `vigil: ${line}`),
    isLocal: io.forceLocal === true,
    mayStart: io.mayStartCore === true,
    ...(io.serveLookup === undefined ? {} : { serveLookup: io.serveLookup }),
    clientId: 'cli',
    echo: cliEcho(io),
  };
}

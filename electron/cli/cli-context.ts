import { escapeControls } from '../../shared/text/control-characters';
import { resolveVigilHome, vigilPaths } from '../lib/vigil-home';
import { createFileLogger, type Logger } from '../logging/logger';
import type { CliIo } from './cli-command';

/** The data folder every command uses: VIGIL_HOME, else ~/.vigil. */
export function cliHome(io: CliIo): string {
  return resolveVigilHome(io.env);
}

/** A logger writing to $VIGIL_HOME/logs and echoing warnings and errors to stderr. */
export function cliLogger(home: string, io: CliIo): Logger {
  return createFileLogger({
    directory: vigilPaths(home).logs,
    echo: { level: 'warn', write: (line) => io.stderr.write(escapeControls(line, { keepLineBreaks: true })) },
  });
}

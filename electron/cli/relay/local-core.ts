import { createCore, type CoreBase } from '../../core';
import { vigilPaths } from '../../lib';
import { createFileLogger } from '../../logging';
import type { CoreRoute, LocalCoreOptions } from './relay-or-local';

/**
 * The one-shot core of a process whose calls stay in it, its log in $VIGIL_HOME/logs with warnings
 * echoed on stderr. Its own file, loaded by one dynamic import only when a call needs the core.
 */
export function openLocalCore(route: CoreRoute, options: LocalCoreOptions): Promise<CoreBase> {
  const logger = createFileLogger({
    directory: vigilPaths(route.home).logs,
    echo: { level: 'warn', write: route.echo },
  });
  return createCore({ home: route.home, logger, env: route.env, mode: 'one-shot', ...options });
}

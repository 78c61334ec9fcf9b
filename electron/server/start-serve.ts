import { AppError } from '../../shared/errors';
import { createCore, type Core } from '../core';
import type { Logger } from '../logging';
import { isLoopbackHost } from './auth';
import type { RunningHttpServer } from './http-server';
import { vigilPaths } from '../lib';
import { serveCore, type ServedCore } from './serve-core';
import { stopBackgroundCoreOf, takeOverBackgroundCore } from './take-over-background-core';

/** Options of the headless server (`vigil serve`). */
export interface ServeOptions {
  readonly home: string;
  readonly host: string;
  readonly port: number;
  /** Required to bind anything but loopback. */
  readonly allowRemote: boolean;
  /** The built renderer to serve; undefined serves no UI. */
  readonly rendererDir: string | undefined;
  readonly logger: Logger;
}

/** A running headless server and the core behind it. */
export interface RunningServe {
  readonly core: Core;
  readonly http: RunningHttpServer;
  readonly token: string;
  /** The page's credential (in `http.url`'s fragment only). */
  readonly pageToken: string;
  /** Stops serving, disposes the core and removes serve.json. */
  close(): Promise<void>;
}

/**
 * The headless composition root: stops a background core of this data folder (it takes its place),
 * claims serve.json, builds the same core as the desktop app,
 * mounts the UI's contract at `/ws` and the core's gateway routes, and records the real port.
 */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
  if (!options.allowRemote && !isLoopbackHost(options.host)) {
    throw new AppError(
      'denied',
      `Refusing to listen on ${options.host}: Vigil binds loopback only unless --allow-remote is given.`,
      { host: options.host },
    );
  }
  // A background core gives way: stopped before this core is built, so two never watch one store.
  await stopBackgroundCoreOf(vigilPaths(options.home).serveInfo, options.logger);
  const core = await createCore({ home: options.home, logger: options.logger });
  let served: ServedCore;
  try {
    served = await serveCore({
      core,
      host: options.host,
      port: options.port,
      rendererDir: options.rendererDir,
      logger: options.logger,
      beforeRelease: () => core.dispose(),
      // One that started meanwhile (a command found no core) gives way too.
      takeOver: (owner) => takeOverBackgroundCore(owner, options.logger),
    });
  } catch (error) {
    await core.dispose();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new AppError(
        'busy',
        `Port ${options.port} on ${options.host} is already in use. Pick another with --port, or --port 0 for any free port.`,
      );
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new AppError('invalid_request', `Cannot listen on ${options.host}: no such local address.`);
    }
    throw error;
  }
  options.logger.info('serving', { url: served.http.baseUrl });
  return { core, http: served.http, token: served.token, pageToken: served.pageToken, close: () => served.close() };
}

import { AppError } from '../../shared/errors';
import { createCore, type Core } from '../core/create-core';
import { vigilVersion } from '../lib/version';
import { vigilPaths } from '../lib/vigil-home';
import type { Logger } from '../logging/logger';
import { AgentCredentialStore } from './agent-credentials';
import { createToken, isLoopbackHost } from './auth';
import { reportRefusedCredential } from './refused-credential';
import { startHttpServer, type RunningHttpServer } from './http-server';
import { claimServeInfo, releaseServeInfo, updateServeInfo } from './serve-info';
import { createWsContractEndpoint } from './ws-contract-endpoint';

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
  /** Stops serving, disposes the core and removes serve.json. */
  close(): Promise<void>;
}

/**
 * The headless composition root: claims serve.json, builds the same core as the desktop app,
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
  const paths = vigilPaths(options.home);
  const token = createToken();
  const startedAt = new Date().toISOString();
  const core = await createCore({ home: options.home, logger: options.logger });
  try {
    await claimServeInfo(paths.serveInfo, { pid: process.pid, port: null, token, url: null, version: vigilVersion, startedAt });
  } catch (error) {
    await core.dispose();
    throw error;
  }
  const ws = createWsContractEndpoint({
    path: '/ws',
    router: core.router,
    events: core.events,
    logger: options.logger,
    version: vigilVersion,
  });
  let http: RunningHttpServer;
  try {
    http = await startHttpServer({
      host: options.host,
      port: options.port,
      token,
      agentCredentials: new AgentCredentialStore(paths.agentCredentials),
      rendererDir: options.rendererDir,
      routes: [ws.route, ...core.httpRoutes],
      serveInfoPath: paths.serveInfo,
      logger: options.logger,
      onCredentialRefused: (refusal) => reportRefusedCredential(core.events, refusal),
    });
  } catch (error) {
    await ws.dispose();
    await releaseServeInfo(paths.serveInfo, token);
    await core.dispose();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new AppError('busy', `Port ${options.port} on ${options.host} is already in use. Pick another with --port, or --port 0 for any free port.`);
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new AppError('invalid_request', `Cannot listen on ${options.host}: no such local address.`);
    }
    throw error;
  }
  await updateServeInfo(paths.serveInfo, { pid: process.pid, port: http.port, token, url: http.url, version: vigilVersion, startedAt });
  options.logger.info('serving', { url: http.baseUrl });

  let closing: Promise<void> | undefined;
  return {
    core,
    http,
    token,
    close: () => {
      closing ??= (async () => {
        await ws.dispose();
        await http.close();
        await core.dispose();
        await releaseServeInfo(paths.serveInfo, token);
      })();
      return closing;
    },
  };
}

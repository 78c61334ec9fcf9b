import { buildPendingSchemas } from '../../shared/lazy-schema';
import type { Core } from '../core';
import { vigilVersion } from '../lib';
import type { Logger } from '../logging';
import { AgentCredentialStore } from './agent-credentials';
import { createToken } from './auth';
import { startHttpServer, type RunningHttpServer } from './http-server';
import { reportRefusedCredential } from './refused-credential';
import { claimServeInfo, releaseServeInfo, updateServeInfo, type ServeInfo } from './serve-info';
import { createWsContractEndpoint } from './ws-contract-endpoint';

/** What serving a core over HTTP takes; `vigil serve` and the desktop app's gateway differ only in these. */
export interface ServeCoreOptions {
  readonly core: Pick<Core, 'paths' | 'router' | 'events' | 'httpRoutes'>;
  readonly host: string;
  readonly port: number;
  /** The built renderer to serve; undefined serves no UI. */
  readonly rendererDir: string | undefined;
  readonly logger: Logger;
  /**
   * Runs on close after the server stopped and before serve.json is released: `vigil serve`
   * disposes its core there, so no CLI starts working in-process while the core still runs.
   */
  readonly beforeRelease?: () => Promise<void>;
  /**
   * A background core (`vigil core run`): serve.json says so, and it was claimed before the core
   * was built (the election between two starts costs the loser no core), with this token.
   */
  readonly background?: { readonly token: string; readonly startedAt: string };
  /** Told how many connections are open as they open and close (the background core's idle clock). */
  readonly onConnections?: (open: number) => void;
  /** Stops a background core that holds serve.json, so that this server takes its place; resolves whether it is gone. */
  readonly takeOver?: (owner: ServeInfo) => Promise<boolean>;
}

/** A core served on HTTP, recorded in serve.json. */
export interface ServedCore {
  readonly http: RunningHttpServer;
  /** The CLI's credential of the UI's audience, recorded in serve.json. */
  readonly token: string;
  /** The page's credential: only in `http.url`, never recorded (a program that reads serve.json cannot approve). */
  readonly pageToken: string;
  /** Stops serving and releases serve.json; safe to call twice. `drainMs`: calls being answered get that long to finish. */
  close(options?: { readonly drainMs?: number }): Promise<void>;
}

/**
 * The start-up both servers share: claims serve.json, mounts the UI's contract at `/ws` beside the
 * core's routes, starts the HTTP server with the stored agent credentials and records its real
 * port. When a step fails it undoes the ones before and throws that step's error.
 */
export async function serveCore(options: ServeCoreOptions): Promise<ServedCore> {
  const { core, logger } = options;
  const serveInfoPath = core.paths.serveInfo;
  const token = options.background?.token ?? createToken();
  const pageToken = createToken();
  const startedAt = options.background?.startedAt ?? new Date().toISOString();
  const background = options.background === undefined ? {} : { background: true };
  if (options.background === undefined) {
    await claimServeInfo(
      serveInfoPath,
      { pid: process.pid, port: null, token, url: null, version: vigilVersion, startedAt },
      options.takeOver,
    );
  }
  const ws = createWsContractEndpoint({
    path: '/ws',
    router: core.router,
    events: core.events,
    logger,
    version: vigilVersion,
  });
  let http: RunningHttpServer | undefined;
  try {
    http = await startHttpServer({
      host: options.host,
      port: options.port,
      token,
      pageToken,
      agentCredentials: new AgentCredentialStore(core.paths.agentCredentials),
      rendererDir: options.rendererDir,
      routes: [ws.route, ...core.httpRoutes],
      serveInfoPath,
      logger,
      onCredentialRefused: (refusal) => reportRefusedCredential(core.events, refusal),
      ...(options.onConnections === undefined ? {} : { onConnections: options.onConnections }),
    });
    await updateServeInfo(serveInfoPath, {
      pid: process.pid,
      port: http.port,
      token,
      // The address only: the page's credential is printed once, never stored where programs read.
      url: http.baseUrl,
      version: vigilVersion,
      startedAt,
      ...background,
    });
  } catch (error) {
    await ws.dispose();
    await http?.close();
    await releaseServeInfo(serveInfoPath, token);
    throw error;
  }
  const running = http;
  // A resident core: the schemas its first requests would build on first use are built now, between them.
  void buildPendingSchemas(() => new Promise((resolve) => setImmediate(resolve)));
  let closing: Promise<void> | undefined;
  return {
    http: running,
    token,
    pageToken,
    close: (closeOptions) => {
      closing ??= (async () => {
        // The server first: calls it is still answering (a drain) keep their events until they end.
        await running.close(closeOptions);
        await ws.dispose();
        await options.beforeRelease?.();
        await releaseServeInfo(serveInfoPath, token);
      })();
      return closing;
    },
  };
}

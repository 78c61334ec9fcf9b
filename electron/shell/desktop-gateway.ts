import { AppError } from '../../shared/errors';
import type { Core } from '../core/create-core';
import { vigilVersion } from '../lib/version';
import type { Logger } from '../logging/logger';
import { AgentCredentialStore } from '../server/agent-credentials';
import { createToken } from '../server/auth';
import { reportRefusedCredential } from '../server/refused-credential';
import { startHttpServer, type RunningHttpServer } from '../server/http-server';
import { claimServeInfo, readLiveServeInfo, releaseServeInfo, updateServeInfo, type ServeInfo } from '../server/serve-info';
import { createWsContractEndpoint } from '../server/ws-contract-endpoint';

/** The desktop app's agent gateway: serving, or not (another Vigil owns this data folder, or it failed). */
export type DesktopGateway =
  | {
      readonly kind: 'serving';
      /** The address without the credential. */
      readonly baseUrl: string;
      readonly port: number;
      /** Stops serving and removes serve.json. */
      close(): Promise<void>;
    }
  | {
      readonly kind: 'unavailable';
      readonly error: AppError;
      /** The live Vigil that owns serve.json, when that is the reason. */
      readonly owner: ServeInfo | undefined;
      close(): Promise<void>;
    };

/** Options of the desktop gateway. */
export interface DesktopGatewayOptions {
  readonly core: Pick<Core, 'paths' | 'router' | 'events' | 'httpRoutes'>;
  readonly logger: Logger;
  /** 0 (the default) picks a free port; serve.json tells clients which. */
  readonly port?: number;
}

function asAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('unexpected', `The agent gateway could not start: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * Serves the core's agent endpoints (`/mcp`, `/agent`, and the contract at `/ws`) from the desktop
 * app on 127.0.0.1 with the same credential model as `vigil serve`: a fresh UI credential recorded
 * in serve.json (for the user's own CLI; it alone reaches `/ws`) and the stored agent credentials
 * (they alone reach `/mcp` and `/agent`), so `vigil mcp` and other clients find the desktop app the same way. No UI is served over
 * HTTP: the window uses IPC. Never throws: when another Vigil already owns serve.json for this data
 * folder, or the server cannot start, the result says why and the window keeps working.
 */
export async function startDesktopGateway(options: DesktopGatewayOptions): Promise<DesktopGateway> {
  const { core, logger } = options;
  const serveInfoPath = core.paths.serveInfo;
  const token = createToken();
  const startedAt = new Date().toISOString();
  const unavailable = async (error: unknown): Promise<DesktopGateway> => {
    const appError = asAppError(error);
    const owner = appError.code === 'busy' ? await readLiveServeInfo(serveInfoPath) : undefined;
    logger.warn('agent gateway not started', { code: appError.code, message: appError.message, ownerPid: owner?.pid });
    return { kind: 'unavailable', error: appError, owner, close: () => Promise.resolve() };
  };

  try {
    await claimServeInfo(serveInfoPath, { pid: process.pid, port: null, token, url: null, version: vigilVersion, startedAt });
  } catch (error) {
    return unavailable(error);
  }
  const ws = createWsContractEndpoint({ path: '/ws', router: core.router, events: core.events, logger, version: vigilVersion });
  let http: RunningHttpServer | undefined;
  try {
    http = await startHttpServer({
      host: '127.0.0.1',
      port: options.port ?? 0,
      token,
      agentCredentials: new AgentCredentialStore(core.paths.agentCredentials),
      rendererDir: undefined,
      routes: [ws.route, ...core.httpRoutes],
      serveInfoPath,
      logger,
      onCredentialRefused: (refusal) => reportRefusedCredential(core.events, refusal),
    });
    await updateServeInfo(serveInfoPath, { pid: process.pid, port: http.port, token, url: http.url, version: vigilVersion, startedAt });
    logger.info('agent gateway serving', { url: http.baseUrl, routes: core.httpRoutes.map((route) => route.path) });
    const running = http;
    let closing: Promise<void> | undefined;
    return {
      kind: 'serving',
      baseUrl: running.baseUrl,
      port: running.port,
      close: () => {
        closing ??= (async () => {
          await ws.dispose();
          await running.close();
          await releaseServeInfo(serveInfoPath, token);
        })();
        return closing;
      },
    };
  } catch (error) {
    await ws.dispose();
    await http?.close();
    await releaseServeInfo(serveInfoPath, token);
    return unavailable(error);
  }
}

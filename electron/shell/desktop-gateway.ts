import { AppError } from '../../shared/errors';
import type { Core } from '../core';
import type { Logger } from '../logging';
import { readLiveServeInfo, serveCore, type ServedCore, type ServeInfo, takeOverBackgroundCore } from '../server';

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
  return new AppError(
    'unexpected',
    `The agent gateway could not start: ${error instanceof Error ? error.message : String(error)}`,
  );
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
  const unavailable = async (error: unknown): Promise<DesktopGateway> => {
    const appError = asAppError(error);
    const owner = appError.code === 'busy' ? await readLiveServeInfo(core.paths.serveInfo) : undefined;
    logger.warn('agent gateway not started', { code: appError.code, message: appError.message, ownerPid: owner?.pid });
    return { kind: 'unavailable', error: appError, owner, close: () => Promise.resolve() };
  };
  let served: ServedCore;
  try {
    served = await serveCore({
      core,
      host: '127.0.0.1',
      port: options.port ?? 0,
      rendererDir: undefined,
      logger,
      // A background core started by a command gives way to the app.
      takeOver: (owner) => takeOverBackgroundCore(owner, logger),
    });
  } catch (error) {
    return unavailable(error);
  }
  logger.info('agent gateway serving', {
    url: served.http.baseUrl,
    routes: core.httpRoutes.map((route) => route.path),
  });
  return { kind: 'serving', baseUrl: served.http.baseUrl, port: served.http.port, close: () => served.close() };
}

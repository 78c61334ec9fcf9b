import { access } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import { readConfigSection } from '../config';
import { coreConfigSchema, createCore } from '../core';
import { ensureVigilHome, vigilVersion } from '../lib';
import type { Logger } from '../logging';
import { createToken } from './auth';
import { serveCore } from './serve-core';
import { claimServeInfo, readServeInfo, releaseServeInfo } from './serve-info';

/** Options of a background core (`vigil core run`). */
export interface BackgroundCoreOptions {
  readonly home: string;
  readonly logger: Logger;
  readonly env?: NodeJS.ProcessEnv;
}

/** A background core serving its data folder until it is idle or stopped. */
export interface RunningBackgroundCore {
  readonly baseUrl: string;
  readonly idleMinutes: number;
  /** Resolves when it has been without a client for `idleMinutes`. */
  readonly idle: Promise<void>;
  /** Resolves, with why, when serve.json no longer names this core: deleted (with its data folder, say), or another core's. */
  readonly displaced: Promise<string>;
  /** Stops serving (calls being answered get a few seconds to finish), disposes the core, releases serve.json. */
  close(): Promise<void>;
}

/** How long calls being answered may take to finish when the core stops. */
const drainMs = 5_000;

async function readIdleMinutes(configFile: string, logger: Logger): Promise<number> {
  try {
    return (await readConfigSection(configFile, 'core', coreConfigSchema)).idleMinutes;
  } catch (error) {
    logger.warn('config.json\'s "core" section is invalid; the background core exits after 30 idle minutes', {
      message: error instanceof Error ? error.message : String(error),
    });
    return coreConfigSchema.parse({}).idleMinutes;
  }
}

/**
 * How long a core nobody has used yet waits for its first client: the command that started it may
 * be slow to come back on a loaded machine, and must find it still running.
 */
const firstClientGraceMs = 60_000;

/** A clock that resolves `idle` once no connection has been open for `ms` (at first, for the grace); `stop` clears it. */
function idleClock(ms: number): {
  readonly idle: Promise<void>;
  readonly onConnections: (open: number) => void;
  readonly stop: () => void;
} {
  let fire: () => void = () => undefined;
  const idle = new Promise<void>((resolve) => (fire = resolve));
  let timer: NodeJS.Timeout | undefined = setTimeout(fire, Math.max(ms, firstClientGraceMs));
  let isStopped = false;
  return {
    idle,
    onConnections: (open) => {
      clearTimeout(timer);
      timer = open === 0 && !isStopped ? setTimeout(fire, ms) : undefined;
    },
    stop: () => {
      isStopped = true;
      clearTimeout(timer);
    },
  };
}

/** How often a background core checks that serve.json still names it. */
const displacedCheckMs = 5_000;

/**
 * A clock that resolves once serve.json no longer names this process: a data folder deleted under a
 * running core (whose store it would otherwise keep writing into nowhere), or serve.json taken by
 * another core. A serve.json that names this pid with another token is left to the commands, which
 * replace such a core themselves, saying so.
 */
function displacedClock(file: string): { readonly displaced: Promise<string>; readonly stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const displaced = new Promise<string>((resolve) => {
    const check = async (): Promise<void> => {
      const exists = await access(file).then(
        () => true,
        () => false,
      );
      const info = exists ? await readServeInfo(file) : undefined;
      if (!exists) resolve(`${file} is gone`);
      else if (info !== undefined && info.pid !== process.pid) resolve(`${file} names another core (pid ${info.pid})`);
      else timer = setTimeout(() => void check(), displacedCheckMs).unref();
    };
    timer = setTimeout(() => void check(), displacedCheckMs).unref();
  });
  return { displaced, stop: () => clearTimeout(timer) };
}

/**
 * The background core: claims serve.json first (marked `background`), so that of two starting at
 * once exactly one builds a core (the other gets `busy`, naming the winner), then builds the same
 * resident core as `vigil serve` and serves its contract and gateway on a free loopback port, with
 * no UI. Nobody can answer an approval there, so such calls are denied at once, as in-process.
 * The app and `vigil serve` stop it and take its place (serve-core.ts `takeOver`).
 */
export async function startBackgroundCore(options: BackgroundCoreOptions): Promise<RunningBackgroundCore> {
  const paths = await ensureVigilHome(options.home);
  const token = createToken();
  const startedAt = new Date().toISOString();
  await claimServeInfo(paths.serveInfo, {
    pid: process.pid,
    port: null,
    token,
    url: null,
    version: vigilVersion,
    startedAt,
    background: true,
  }).catch((error: unknown) => {
    if (!(error instanceof AppError) || error.code !== 'busy') throw error;
    // The election: another core claimed serve.json first, and serves; this one was not needed.
    throw new AppError(
      'busy',
      `Another Vigil core (pid ${typeof error.details?.['pid'] === 'number' ? error.details['pid'] : '?'}) already serves ${options.home}, so this background core exits.`,
      error.details,
    );
  });
  const idleMinutes = await readIdleMinutes(paths.config, options.logger);
  const clock = idleClock(idleMinutes * 60_000);
  const watch = displacedClock(paths.serveInfo);
  try {
    const core = await createCore({ home: options.home, logger: options.logger, env: options.env, canAsk: false });
    const served = await serveCore({
      core,
      host: '127.0.0.1',
      port: 0,
      rendererDir: undefined,
      logger: options.logger,
      beforeRelease: () => core.dispose(),
      background: { token, startedAt },
      onConnections: clock.onConnections,
    }).catch(async (error: unknown) => {
      await core.dispose();
      throw error;
    });
    return {
      baseUrl: served.http.baseUrl,
      idleMinutes,
      idle: clock.idle,
      displaced: watch.displaced,
      close: async () => {
        clock.stop();
        watch.stop();
        await served.close({ drainMs });
      },
    };
  } catch (error) {
    clock.stop();
    watch.stop();
    await releaseServeInfo(paths.serveInfo, token);
    throw error;
  }
}

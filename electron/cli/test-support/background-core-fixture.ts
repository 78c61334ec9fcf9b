import { mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from '../../lib/process/is-process-alive';
import { stopProcess } from '../../lib/process/stop-process';
import { runVigil, withBackgroundCore, type VigilRun } from '../../test-support/run-vigil';
import { makeWorkspace, type Workspace } from './relay-fixture';

/** serve.json as a test reads it. */
export interface ServeJson {
  readonly pid: number;
  readonly port: number | null;
  readonly token: string;
  readonly url: string | null;
  readonly version: string;
  readonly startedAt: string;
  readonly background?: boolean;
}

/** A workspace whose commands may start a background core; `stopCores` stops every one it started. */
export interface CoreWorkspace extends Workspace {
  /** `vigil ARGS` with background cores allowed (`input` on its stdin). */
  vigil(args: readonly string[], input?: string): Promise<VigilRun>;
  serveJson(): Promise<ServeJson | undefined>;
  writeServeJson(info: ServeJson): Promise<void>;
  /** The pids of the `vigil core run` processes of this data folder that are alive now (Linux: by their working folder). */
  liveCores(): Promise<readonly number[]>;
  /** Stops every background core this data folder has, so no test leaves one running. */
  stopCores(): Promise<void>;
}

/**
 * A workspace under `base` with `core` settings in its config.json (the start wait made long: a
 * core started from the TypeScript sources on a loaded machine takes seconds).
 */
export async function makeCoreWorkspace(base: string, core: Record<string, unknown> = {}): Promise<CoreWorkspace> {
  const workspace = await makeWorkspace(base);
  await mkdir(workspace.home, { recursive: true });
  await writeFile(
    path.join(workspace.home, 'config.json'),
    JSON.stringify({ core: { startTimeoutSeconds: 120, ...core } }),
  );
  const serveFile = path.join(workspace.home, 'serve.json');
  const seen = new Set<number>();
  const serveJson = async (): Promise<ServeJson | undefined> => {
    const text = await readFile(serveFile, 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const info = JSON.parse(text) as ServeJson;
    seen.add(info.pid);
    return info;
  };
  const liveCores = async (): Promise<readonly number[]> => {
    // Elsewhere: the background cores serve.json named while the test ran (a test process is never one).
    if (process.platform !== 'linux') return [...seen].filter((pid) => pid !== process.pid && isProcessAlive(pid));
    const pids: number[] = [];
    for (const name of await readdir('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const [cmdline, cwd] = await Promise.all([
        readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => ''),
        readlink(`/proc/${name}/cwd`).catch(() => ''),
      ]);
      if (cwd === workspace.home && cmdline.split('\0').join(' ').includes(' core run')) pids.push(Number(name));
    }
    return pids;
  };
  return {
    ...workspace,
    vigil: async (args, input) => {
      const env = withBackgroundCore(workspace.env);
      const run = await runVigil(args, { env, cwd: workspace.base, ...(input === undefined ? {} : { input }) });
      await serveJson();
      return run;
    },
    serveJson,
    writeServeJson: (info) => writeFile(serveFile, JSON.stringify(info), { mode: 0o600 }),
    liveCores,
    stopCores: async () => {
      const info = await serveJson();
      const pids = new Set(await liveCores());
      if (info?.background === true && isProcessAlive(info.pid) && info.pid !== process.pid) pids.add(info.pid);
      for (const pid of pids) await stopProcess(pid, 10_000);
    },
  };
}

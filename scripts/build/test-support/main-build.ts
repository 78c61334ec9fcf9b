import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { childEnv } from '../../../electron/test-support/run-vigil';

/** The repository's root. */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** The real main build (bench/chunk-plan.config.ts: the main part of electron.vite.config.ts, chunk plan on) into `outDir`. */
export function buildMain(outDir: string): void {
  const result = spawnSync(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/electron-vite/bin/electron-vite.js'),
      'build',
      '-c',
      'bench/chunk-plan.config.ts',
    ],
    { cwd: repoRoot, encoding: 'utf8', env: childEnv({ VIGIL_BENCH_OUT_DIR: outDir, VIGIL_BENCH_CHUNK_PLAN: 'on' }) },
  );
  if (result.status !== 0) throw new Error(`the main build failed: ${result.stderr}`);
}

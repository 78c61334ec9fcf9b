import { build } from 'esbuild';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { exitCpuReport } from './process-sample';
import { root } from './vigil-process';

/** The two locks under test: Vigil's FileLock and proper-lockfile. */
export type LockKind = 'ours' | 'library';

/** proper-lockfile's options in every contender: the minimum staleness it allows (2 s), and retries so that a contender waits. */
export const libraryStaleMs = 2_000;

/** Each kind's `withLock(task)` as a contender script defines it. */
function withLockSource(kind: LockKind, bundle: string): string {
  if (kind === 'ours')
    return `import { FileLock } from ${JSON.stringify(pathToFileURL(bundle).href)};
const lock = new FileLock({ path: lockPath, resource: 'the bench resource', timeoutMs: 8_000 });
const withLock = (task) => lock.withLock(task);`;
  const library = createRequire(import.meta.url).resolve('proper-lockfile');
  return `import { createRequire } from 'node:module';
const lockfile = createRequire(import.meta.url)(${JSON.stringify(library)});
const withLock = async (task) => {
  const release = await lockfile.lock(lockPath, { realpath: false, stale: ${libraryStaleMs}, retries: { retries: 100000, minTimeout: 1, maxTimeout: 20 },
    onCompromised: (error) => process.stderr.write('compromised: ' + error.message + '\\n') });
  try { return await task(); } finally { await release().catch(() => undefined); }
};`;
}

/**
 * A contender, run as a real process: `count LOCK COUNTER LOG N` adds 1 to COUNTER N times under
 * the lock, logging enter/exit; `hold LOCK` takes the lock, prints "held" and keeps it; `take LOCK`
 * prints how long taking the lock took (or the error), once it has it.
 */
const contenderBody = `
const [mode, lockPath, counter, log, times] = process.argv.slice(2);
__WITH_LOCK__
const { readFile, writeFile, appendFile } = await import('node:fs/promises');
if (mode === 'count') {
  for (let index = 0; index < Number(times); index += 1)
    await withLock(async () => {
      await appendFile(log, 'enter ' + process.pid + '\\n');
      const value = Number(await readFile(counter, 'utf8').catch(() => '0'));
      await writeFile(counter, String(value + 1));
      await appendFile(log, 'exit ' + process.pid + '\\n');
    });
} else if (mode === 'hold') {
  await withLock(async () => { process.stdout.write('held\\n'); await new Promise(() => setInterval(() => undefined, 1_000)); });
} else {
  const start = performance.now();
  try {
    await withLock(async () => process.stdout.write('took ' + (performance.now() - start).toFixed(0) + '\\n'));
  } catch (error) {
    process.stdout.write('refused after ' + (performance.now() - start).toFixed(0) + ' ms: ' + (error.code ?? '') + ' ' + error.message.split('\\n')[0] + '\\n');
  }
}
`;

/** Writes the contender script of each kind (Vigil's lock bundled, as the build bundles it); their paths. */
export async function writeContenders(base: string): Promise<Record<LockKind, string>> {
  const bundle = path.join(base, 'file-lock.mjs');
  await build({
    entryPoints: [path.join(root, 'electron/locks/file-lock.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: bundle,
    logLevel: 'silent',
  });
  const files = { ours: path.join(base, 'lock-ours.mjs'), library: path.join(base, 'lock-library.mjs') };
  for (const kind of ['ours', 'library'] as const)
    await writeFile(
      files[kind],
      `${exitCpuReport}\n${contenderBody.replace('__WITH_LOCK__', () => withLockSource(kind, bundle))}`,
    );
  return files;
}

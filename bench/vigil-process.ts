import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/**
 * The repository, and the built `vigil` the benches run as whole processes (`npm run build` first):
 * package.json's `bin`, as a user's `vigil` and agents' hooks run it (the CommonJS relay entry,
 * which goes on in the ES executable `cli.js` for what it does not run itself).
 */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const cli = path.join(root, 'out/main/cli.cjs');

/** Starts `vigil serve` on the data folder of `env` and resolves once it serves. */
export async function startServe(
  env: NodeJS.ProcessEnv,
  cliPath = cli,
): Promise<ChildProcessByStdio<null, Readable, null>> {
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (/^url: /m.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`vigil serve exited (${String(code)})`)));
  });
  return child;
}

/** What one `vigil` process loads: its files, their size, and any heavy library or the core among them. */
export interface LoadedFiles {
  readonly files: number;
  readonly kib: number;
  readonly heavy: readonly string[];
}

/**
 * The files `vigil ARGS` loads (ES modules traced by a resolve hook, CommonJS files by Module's load), with `input` on its stdin. zod
 * and diff are bundled into the build's chunks: a chunk that holds them counts as loading them.
 */
export function loadedFiles(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  input?: string,
  cliPath = cli,
): LoadedFiles {
  const resolver = `data:text/javascript,${encodeURIComponent("export async function resolve(s, c, n) { const r = await n(s, c); if (!r.url.startsWith('node:')) process.stderr.write('IMPORT ' + r.url + '\\n'); return r; }")}`;
  // CommonJS files (the relay entry, cli.cjs, and its chunks) do not pass the resolve hook: Module's load reports them.
  const commonJs =
    "import Module from 'node:module'; import { pathToFileURL } from 'node:url'; const load = Module.prototype.load; Module.prototype.load = function (file) { process.stderr.write('IMPORT ' + pathToFileURL(file).href + '\\n'); return load.call(this, file); };";
  const register = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(resolver)}); ${commonJs}`)}`;
  const { stderr } = spawnSync(process.execPath, ['--import', register, cliPath, ...args], {
    env,
    encoding: 'utf8',
    input,
  });
  const urls = stderr
    .split('\n')
    .flatMap((line) => (line.startsWith('IMPORT file:') ? [line.slice('IMPORT '.length)] : []));
  const files = [...new Set(urls)].map((url) => fileURLToPath(url));
  const heavy = files
    .filter(
      (file) =>
        /node_modules\/(zod|ws|isomorphic-git|@modelcontextprotocol|chokidar|diff|yaml)\//.test(file) ||
        /create-core|core-services/.test(file) ||
        (file.endsWith('.js') && /\$ZodType|structuredPatch/.test(readFileSync(file, 'utf8'))),
    )
    .map((file) => path.relative(root, file));
  return { files: files.length, kib: files.reduce((sum, file) => sum + statSync(file).size, 0) / 1024, heavy };
}

/**
 * The variable that points Node at extra CA certificates. Where it is set (this machine sets it),
 * every Node process reads and parses that bundle before its first line runs, `vigil` included,
 * though the CLI and hooks make no TLS connection; git does not pay it.
 */
const caBundleVariable = 'NODE_EXTRA_CA_CERTS';

/** `env` without NODE_EXTRA_CA_CERTS: Node starts as it does on a machine with no private CA bundle. */
export function withoutCaBundle(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [caBundleVariable]: _bundle, ...rest } = env;
  return rest;
}

/** One sentence on what NODE_EXTRA_CA_CERTS costs each Node process here (`node -e 0` with and without it, alternating), or none when it is not set. */
export function caBundleNote(runs: number): string {
  const bundle = process.env[caBundleVariable];
  if (bundle === undefined || bundle === '') return '';
  const withIt: number[] = [];
  const without: number[] = [];
  const clean = withoutCaBundle(process.env);
  for (let run = 0; run < runs; run += 1) {
    for (const [samples, env] of [
      [withIt, process.env],
      [without, clean],
    ] as const) {
      const start = performance.now();
      spawnSync(process.execPath, ['-e', '0'], { env, stdio: 'ignore' });
      samples.push(performance.now() - start);
    }
  }
  const median = (samples: number[]): number => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
  return (
    `This machine sets ${caBundleVariable} (${bundle}): every Node process then parses that bundle before its first line runs ` +
    `(\`node -e 0\` ${median(withIt).toFixed(1)} ms with it, ${median(without).toFixed(1)} ms without, medians of ${runs} alternating). ` +
    'Vigil makes no TLS connection here and git does not pay it, so the Node processes below run without it, as on a machine with no ' +
    'private CA bundle; where it is set, add that difference to every Vigil row.'
  );
}

/**
 * The environment of a run's `vigil` processes: its own VIGIL_HOME (retention out of the way: the
 * benches measure checkpoints and restores, not cuts), HOME and (absent) Hermes home, no CA bundle,
 * and no background core started by a command (a row that wants one sets VIGIL_NO_CORE to 0).
 */
export function vigilBenchEnv(base: string): NodeJS.ProcessEnv {
  const home = path.join(base, 'home');
  mkdirSync(home, { recursive: true });
  mkdirSync(path.join(base, 'user'), { recursive: true });
  writeFileSync(path.join(home, 'config.json'), JSON.stringify({ checkpoints: { maxSnapshots: 10_000 } }));
  return withoutCaBundle({
    ...process.env,
    VIGIL_HOME: home,
    HOME: path.join(base, 'user'),
    HERMES_HOME: path.join(base, 'no-hermes'),
    VIGIL_NO_CORE: '1',
  });
}

import { execFile, spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';

/** The repository root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** tsx's loader by absolute URL, so children started in any directory can run TypeScript. */
export const tsxLoader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

/** The CLI's TypeScript entry; tests run it from source through tsx, so no build is needed. */
export const vigilEntry = path.join(repoRoot, 'electron/cli/vigil.ts');

/**
 * The executable as installed (package.json's bin is its CommonJS build): the relay entry, which
 * runs relayed checkpoints and hooks itself and loads vigil.ts for the rest. `spawnVigil` starts it,
 * so every command's tests go through it, from source.
 */
export const relayEntry = path.join(repoRoot, 'electron/cli/relay-entry.ts');

/** The file URL of one of the sandbox's source modules, for a script run in a fresh process to import. */
export const sandboxModuleUrl = (file: string): string =>
  pathToFileURL(path.join(repoRoot, 'electron/sandbox', file)).href;

/** What a finished `vigil` process printed and returned. */
export interface VigilRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of a `vigil` child process. */
export interface VigilSpawnOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Written to stdin, which is then closed. */
  readonly input?: string | Buffer;
  /** Bytes: the child runs under this file size limit (RLIMIT_FSIZE, by `prlimit`), so a bigger write fails (EFBIG). */
  readonly fileSizeLimit?: number;
}

/**
 * The variables by which a CI runner announces itself. Gemini CLI treats a run under them as
 * headless, and so does Vigil's hook for it; the tests run on CI runners and on desks alike, so a
 * child inherits none of them, and a test about CI sets them itself.
 */
const ciMarkers = ['CI', 'GITHUB_ACTIONS', 'GEMINI_CLI_INTEGRATION_TEST'] as const;

/**
 * This process's environment without the CI runner's markers, with `extra` on top: what a test's
 * child process starts with. `VIGIL_NO_CORE=1` unless `extra` says otherwise: a command that finds
 * no core would start a background one that outlives the test; a test about that opts in with
 * `withBackgroundCore()` and stops what it started.
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const markers = new Set<string>(ciMarkers);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !markers.has(name)));
  return { ...env, VIGIL_NO_CORE: '1', ...extra };
}

/** The variable that lets a test's `vigil` commands start a background core (childEnv's default forbids it). */
export function withBackgroundCore(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...extra, VIGIL_NO_CORE: '0' };
}

/** Starts `vigil ARGS` as a real child process (Node + tsx on the TypeScript source, from the relay entry). */
export function spawnVigil(args: readonly string[], options: VigilSpawnOptions = {}): ChildProcessWithoutNullStreams {
  const node = [process.execPath, '--import', tsxLoader, relayEntry, ...args];
  const limit = options.fileSizeLimit === undefined ? [] : ['prlimit', `--fsize=${options.fileSizeLimit}`];
  const [command = '', ...commandArgs] = [...limit, ...node];
  const child = spawn(command, commandArgs, {
    cwd: options.cwd ?? repoRoot,
    env: childEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin.end(options.input);
  else child.stdin.end();
  return child;
}

/** Runs `vigil ARGS` to completion and collects its output. */
export function runVigil(args: readonly string[], options: VigilSpawnOptions = {}): Promise<VigilRun> {
  return collectRun(spawnVigil(args, options));
}

/** Collects what a child process (started with piped stdout and stderr) prints, until it closes: how it ended and its output. */
export function collectRun(
  child: ChildProcess & { readonly stdout: Readable; readonly stderr: Readable },
): Promise<VigilRun> {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * Runs a TypeScript script (written as `script.mts` in `dir`) in a new Node process, from the repository's
 * root: for what is process-wide (the require cache, stand-ins for built-ins). Resolves to the last line it
 * printed, parsed as JSON.
 */
export async function runScriptInFreshProcess(dir: string, source: string): Promise<Record<string, unknown>> {
  const script = path.join(dir, 'script.mts');
  await writeFile(script, source);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', tsxLoader, script], {
    cwd: repoRoot,
    env: childEnv(),
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

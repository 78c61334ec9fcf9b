import type { ChildProcess, SpawnSyncReturns } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { access, constants, readdir, stat } from 'node:fs/promises';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';

/**
 * Answers, inside this process, the two programs the sandbox engine forks for every command it
 * wraps on Linux, where the answer is already known: `which /bin/sh` (its shell, by absolute path:
 * `which` then only checks that the file is an executable regular file) and `rg --files …` over the
 * folder it is run from (its scan for protected names, of Vigil's own empty engine folder: an empty
 * folder lists nothing). Each fork copied the process and ran a program (`which` is a shell
 * script; ripgrep starts a thread pool): 10–20 ms of a command's start on a loaded machine.
 *
 * How: the engine imports `spawnSync` and `spawn` from `node:child_process`; Node keeps such imports
 * of a built-in module bound to its CommonJS exports through `syncBuiltinESMExports()`. The
 * stand-ins answer only a call the current wrap prepared (checked on the disk, asynchronously, just
 * before the wrap) and pass every other call to Node's own functions unchanged. The engine's calls
 * this relies on are pinned to its version by engine-forks.test.ts.
 */

/** What the wrap under way may be answered without a fork: one `which` per shell, one listing per empty folder. */
interface Prepared {
  readonly executables: Set<string>;
  readonly emptyFolders: Set<string>;
}

let prepared: Prepared | undefined;
let isInstalled = false;

/** How many engine forks were answered in this process (for tests and diagnostics). */
export const answeredForks = { which: 0, listings: 0 };

/** The flags of the engine's ripgrep scan (linuxGetMandatoryDenyPaths); a call with any other is ripgrep's to answer. */
const listingFlags = new Set(['--files', '--hidden', '--no-ignore', '--no-config', '--line-buffered']);
const listingFlagsWithValue = new Set(['--max-depth', '--iglob', '-g']);

/** Whether `args` (the folder last) are a file listing by ripgrep that prints nothing for an empty folder. */
function isPlainListing(args: readonly string[]): boolean {
  if (args[0] !== '--files') return false;
  for (let index = 0; index < args.length - 1; index += 1) {
    const arg = args[index] ?? '';
    if (listingFlagsWithValue.has(arg)) index += 1;
    else if (!listingFlags.has(arg)) return false;
  }
  return true;
}

/** `which PATH` for a prepared executable: what the real one prints (the path, a newline) and its status. */
function whichAnswer(file: unknown, args: unknown, options: unknown): SpawnSyncReturns<string> | undefined {
  if (file !== 'which' || !Array.isArray(args) || args.length !== 1) return undefined;
  const [program] = args as unknown[];
  if (typeof program !== 'string' || prepared?.executables.has(program) !== true) return undefined;
  if ((options as { encoding?: unknown } | undefined)?.encoding !== 'utf8') return undefined;
  answeredForks.which += 1;
  const stdout = `${program}\n`;
  // stdio is ['ignore', 'pipe', 'ignore'] in the engine's call: Node gives null for the streams it ignored.
  const stderr = null as unknown as string;
  return { pid: 0, output: [null, stdout, null] as unknown as string[], stdout, stderr, status: 0, signal: null };
}

/** A finished ripgrep that listed nothing: status 1 (ripgrep's "no match"), empty output. */
function emptyListing(): ChildProcess {
  const child = Object.assign(new EventEmitter(), {
    stdin: null,
    stdout: Readable.from([]),
    stderr: Readable.from([]),
    pid: undefined,
    exitCode: null as number | null,
    signalCode: null,
    killed: false,
    kill: () => false,
  });
  setImmediate(() => {
    child.exitCode = 1;
    child.emit('exit', 1, null);
    child.emit('close', 1, null);
  });
  return child as unknown as ChildProcess;
}

function isPreparedListing(file: unknown, args: unknown): boolean {
  if (file !== 'rg' || !Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) return false;
  const folder = args.at(-1);
  return folder !== undefined && prepared?.emptyFolders.has(folder) === true && isPlainListing(args);
}

/** Puts the stand-ins in place of Node's `spawnSync` and `spawn` (once per process). */
function install(): void {
  if (isInstalled) return;
  isInstalled = true;
  const childProcess = createRequire(import.meta.url)('node:child_process') as Record<string, unknown>;
  const realSpawnSync = childProcess['spawnSync'] as (...args: unknown[]) => unknown;
  const realSpawn = childProcess['spawn'] as (...args: unknown[]) => unknown;
  childProcess['spawnSync'] = function spawnSync(this: unknown, ...args: unknown[]): unknown {
    return whichAnswer(args[0], args[1], args[2]) ?? Reflect.apply(realSpawnSync, this, args);
  };
  childProcess['spawn'] = function spawn(this: unknown, ...args: unknown[]): unknown {
    if (isPreparedListing(args[0], args[1])) {
      answeredForks.listings += 1;
      return emptyListing();
    }
    return Reflect.apply(realSpawn, this, args);
  };
  syncBuiltinESMExports();
}

async function isExecutableFile(file: string): Promise<boolean> {
  if (!path.isAbsolute(file)) return false;
  const isFile = await stat(file).then(
    (stats) => stats.isFile(),
    () => false,
  );
  return (
    isFile &&
    (await access(file, constants.X_OK).then(
      () => true,
      () => false,
    ))
  );
}

/**
 * Runs one wrap by the engine with its `which` of `shell` and its ripgrep scan of `folder` answered
 * here, where the disk says what they would say now: the shell an executable file, the folder
 * empty. Anything else is left to the real programs. Wraps must not overlap (sandbox-runtime.ts
 * runs them one at a time).
 */
export async function withEngineForksAnswered<T>(shell: string, folder: string, wrap: () => Promise<T>): Promise<T> {
  if (process.platform !== 'linux') return wrap();
  install();
  const [isShell, entries] = await Promise.all([isExecutableFile(shell), readdir(folder).catch(() => undefined)]);
  prepared = {
    executables: new Set(isShell ? [shell] : []),
    emptyFolders: new Set(entries?.length === 0 ? [folder] : []),
  };
  try {
    return await wrap();
  } finally {
    prepared = undefined;
  }
}

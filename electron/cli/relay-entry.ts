/**
 * The `vigil` executable as installed (package.json's `bin`: out/main/cli.cjs), and the command
 * agents' hooks run: CommonJS. A relayed `vigil checkpoint DIR`, a relayed `vigil checkpoints restore`
 * and every `vigil hook` run here from start to answer (this file and the CommonJS chunk of its
 * path); anything else goes on in the ES
 * module executable (cli.js, from vigil.ts), which is loaded only then. Why: each of these
 * commands is a fresh Node process whose work is one request to the resident core, and Node's ES
 * loader reads every module file through libuv's thread pool (starting its threads), while
 * CommonJS files are read at once. A relayed call from here starts no thread at all: serve.json and
 * the core's /proc entry are read at once too (docs/benchmarks/cli-notes.md, "Session 7: the
 * relayed client", has the figures). The build bundles it (scripts/build/relay-entry.ts); the
 * one-shot core a call falls back to when no core takes it is the ES build's (local-core.js).
 */
// eslint-disable-next-line no-restricted-syntax -- a one-shot process with nothing else to do: blocking reads start no thread pool (measured, see above)
import { readFileSync } from 'node:fs';
import { isProcessAlive, processStateOfStat, resolveVigilHome, vigilPaths } from '../lib';
import { checkpointArguments } from './checkpoint-process';
import { expectsCore } from './relay/expects-core';
import { serveLookupOf, type CredentialLookup, type ServeFileRead } from './relay/serve-credential';

/** Whether the process serve.json names has exited (gone, or a zombie), read at once. */
function isGoneNow(pid: number): boolean {
  if (!isProcessAlive(pid)) return true;
  if (process.platform !== 'linux') return false;
  try {
    return processStateOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.hasExited === true;
  } catch {
    return false;
  }
}

/** serve.json, read at once (the same reading as readServeCredential's, which reads it with a promise). */
function readServeNow(file: string): CredentialLookup {
  let read: ServeFileRead;
  try {
    read = { text: readFileSync(file, 'utf8') };
  } catch (error) {
    read = { error: error as NodeJS.ErrnoException };
  }
  return serveLookupOf(file, read, isGoneNow);
}

/**
 * serve.json as read, when a core will take the command's calls (serve.json names one, or a
 * background core may start); undefined when they stay in-process (the ES build runs the command).
 */
async function expectedCore(): Promise<CredentialLookup | undefined> {
  const home = resolveVigilHome(process.env);
  const serveLookup = readServeNow(vigilPaths(home).serveInfo);
  const { isExpected } = await expectsCore({ home, env: process.env, isLocal: false, serveLookup });
  return isExpected ? serveLookup : undefined;
}

/**
 * `vigil checkpoint DIR` when a core will take it: run from here. Resolves false, having only read,
 * when it goes on in-process (vigil.ts starts its walk early).
 */
async function relayedCheckpoint(argv: readonly string[]): Promise<boolean> {
  const parsed = checkpointArguments(argv.slice(1), process.cwd());
  if (parsed === undefined || parsed.isLocal) return false;
  const serveLookup = await expectedCore();
  if (serveLookup === undefined) return false;
  const { runRelayedCheckpoint } = await import('./relayed-commands');
  await runRelayedCheckpoint(argv, serveLookup);
  return true;
}

/**
 * `vigil checkpoints restore …` when a core will take it: run from here, whatever its options (the
 * command parses them as it does in vigil.ts). Resolves false, having only read, with `--local`
 * (before a `--`) or when no core will take it: the ES build then restores in-process.
 */
async function relayedRestore(argv: readonly string[]): Promise<boolean> {
  const end = argv.indexOf('--');
  if ((end < 0 ? argv : argv.slice(0, end)).includes('--local')) return false;
  const serveLookup = await expectedCore();
  if (serveLookup === undefined) return false;
  const { runRelayedRestore } = await import('./relayed-commands');
  await runRelayedRestore(argv, serveLookup);
  return true;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'hook') {
    const { runHookProcess } = await import('./hook/hook-main');
    await runHookProcess(argv.slice(1), readServeNow);
    return;
  }
  if (argv[0] === 'checkpoint' && (await relayedCheckpoint(argv))) return;
  if (argv[0] === 'checkpoints' && argv[1] === 'restore' && (await relayedRestore(argv))) return;
  // Everything else: the ES module executable, which runs the command line itself.
  await import('./vigil');
}

void main();

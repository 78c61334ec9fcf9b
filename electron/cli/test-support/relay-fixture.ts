import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallContext } from '../../transport/call-handlers';
import { createCore, type Core } from '../../core/create-core';
import { silentLogger } from '../../logging/logger';
import { startDesktopGateway, type DesktopGateway } from '../../shell/desktop-gateway';
import { runVigil, type VigilRun } from '../../test-support/run-vigil';

/** A resident core serving a VIGIL_HOME on loopback (as the app does), recording which contract calls reached it. */
export interface ResidentCore {
  readonly core: Core;
  readonly gateway: DesktopGateway;
  /** Every channel called on it, in order. */
  readonly calls: string[];
  stop(): Promise<void>;
}

/** Starts a resident core on `home` with a gateway that writes serve.json, as the desktop app does. */
export async function startResidentCore(home: string, env: NodeJS.ProcessEnv): Promise<ResidentCore> {
  const core = await createCore({ home, logger: silentLogger, env });
  const calls: string[] = [];
  const router = {
    dispatch: (channel: string, payload: unknown, context: CallContext) => {
      calls.push(channel);
      return core.router.dispatch(channel, payload, context);
    },
  };
  const gateway = await startDesktopGateway({ core: { ...core, router }, logger: silentLogger });
  if (gateway.kind !== 'serving') throw new Error(`the gateway did not start: ${gateway.error.message}`);
  return {
    core,
    gateway,
    calls,
    stop: async () => {
      await gateway.close();
      await core.dispose();
    },
  };
}

/** A workspace: a data folder, a project with a few files, a throwaway HOME. */
export interface Workspace {
  readonly base: string;
  readonly home: string;
  readonly project: string;
  readonly env: NodeJS.ProcessEnv;
}

/** Lays down a workspace under `base`. */
export async function makeWorkspace(base: string): Promise<Workspace> {
  const home = path.join(base, 'home');
  const project = path.join(base, 'project');
  await mkdir(path.join(project, 'src'), { recursive: true });
  await writeFile(path.join(project, 'src/a.txt'), 'one\ntwo\n');
  await writeFile(path.join(project, 'README.md'), '# project\n');
  await mkdir(path.join(base, 'user'), { recursive: true });
  return {
    base,
    home,
    project,
    env: { VIGIL_HOME: home, HOME: path.join(base, 'user'), HERMES_HOME: path.join(base, 'no-hermes') },
  };
}

/**
 * Output with what differs between two runs on two identical workspaces taken out: the base
 * folder, checkpoint and session ids, times and sizes (a resident core packs its store in the
 * background, so sizes do not say what it holds).
 */
export function normalized(text: string, base: string): string {
  return (
    text
      .split(base)
      .join('<base>')
      .replace(/ses_[0-9a-z]+/g, '<session>')
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>')
      .replace(/\b[0-9a-f]{8,64}\b/g, '<id>')
      .replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?Z?)?/g, '<time>')
      .replace(/\d+ (?:s|min|h|d) ago/g, '<ago>')
      .replace(/\d+(?:\.\d+)? (?:B|KiB|MiB|GiB)\b/g, '<size>')
      .replace(/"(bytes|bytesBefore|bytesAfter|looseObjects|packs|droppedObjects)":\d+/g, '"$1":<n>')
      .replace(/\(\d+ loose object\(s\), \d+ pack\(s\)\)/g, '(<objects>)')
      // How a core finds changes differs by design: a resident core's watcher, a one-shot process's walk.
      .replace(
        /^ {2}(?:watched \(|walked, not watched: |walked at every checkpoint: |the next checkpoint walks ).*\n/gm,
        '',
      )
      // Columns are padded to their widest cell, which a time ("9 s ago", "10 s ago") changes.
      .replace(/ {2,}/g, '  ')
  );
}

/** A run with its output normalized against its workspace. */
export interface ComparableRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function comparable(run: VigilRun, base: string): ComparableRun {
  return { code: run.code, stdout: normalized(run.stdout, base), stderr: normalized(run.stderr, base) };
}

/** One command run on both workspaces at once: relayed to the resident core on one, `--local` on the other. */
export async function runBoth(
  args: (workspace: Workspace) => readonly string[],
  relayed: Workspace,
  local: Workspace,
): Promise<{ readonly relayed: ComparableRun; readonly local: ComparableRun }> {
  const [first, second] = await Promise.all([
    runVigil(args(relayed), { env: relayed.env }),
    runVigil([...args(local), '--local'], { env: local.env }),
  ]);
  return { relayed: comparable(first, relayed.base), local: comparable(second, local.base) };
}

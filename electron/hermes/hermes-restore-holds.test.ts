import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../core/create-core';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { hermesSharedCheckpoint } from './test-support/hermes-fixtures';

/**
 * A restore point holds everything the restore overwrites (design.md §4): a Hermes checkpoint
 * holds `.envrc` and `logo.png`, which Vigil's built-in rules leave out; restoring it writes both
 * back, and undoing the restore brings back the versions it overwrote. The restore point's tree
 * is read with git's own CLI.
 */

const context = { transport: 'test', clientId: 'hermes-restore-holds' } as const;
let base: string;
let remove: () => Promise<void>;
let core: Core;
let project: string;
let hermesHome: string;
const pngV1 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 1, 1]);
const pngV2 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 2, 2, 2, 2]);

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-hermes-holds-'));
  project = path.join(base, 'project');
  hermesHome = path.join(base, 'hermes');
  mkdirSync(project);
  core = await createCore({ home: path.join(base, 'vigil'), logger: silentLogger, env: { HERMES_HOME: hermesHome } });
});
afterEach(async () => {
  await core.dispose();
  await remove();
});

interface Result {
  readonly status: string;
  readonly preRollback: { readonly id: string };
  readonly outcomes: readonly { readonly path: string; readonly result: string; readonly reason?: string }[];
}

async function restore(checkpoint: string, allowSecrets: boolean): Promise<Result> {
  const plan = await core.router.dispatch('checkpoints:plan-restore', { dir: project, checkpoint }, context);
  if (!plan.ok) throw new Error(plan.error.message);
  const { fingerprint } = plan.value as { fingerprint: string };
  const restored = await core.router.dispatch(
    'checkpoints:restore',
    { dir: project, checkpoint, fingerprint, allowSecrets },
    context,
  );
  if (!restored.ok) throw new Error(restored.error.message);
  return restored.value as Result;
}

/** A file of a commit of Vigil's store, read with git's CLI. */
function storedFile(commit: string, file: string): Buffer {
  const gitdir = path.join(base, 'vigil', 'checkpoints', 'store');
  return execFileSync('git', ['--git-dir', gitdir, 'cat-file', 'blob', `${commit}:${file}`]);
}

describe('a Hermes checkpoint holding files Vigil leaves out', () => {
  it('restores .envrc and logo.png fully, its restore point holds what it overwrote, and undo brings that back', async () => {
    writeFileSync(path.join(project, 'a.txt'), 'a\n');
    writeFileSync(path.join(project, '.envrc'), 'export MODE=one\n');
    writeFileSync(path.join(project, 'logo.png'), pngV1);
    const id = hermesSharedCheckpoint(hermesHome, project, 'before write_file', { seconds: 1_700_000_000 }) ?? '';
    writeFileSync(path.join(project, '.envrc'), 'export MODE=two\n');
    writeFileSync(path.join(project, 'logo.png'), pngV2);

    const result = await restore(id, true);
    expect(result.status).toBe('complete');
    expect(result.outcomes.map((outcome) => `${outcome.result} ${outcome.path}`)).toEqual([
      'done .envrc',
      'done logo.png',
    ]);
    expect(readFileSync(path.join(project, '.envrc'), 'utf8')).toBe('export MODE=one\n');
    expect(readFileSync(path.join(project, 'logo.png'))).toEqual(pngV1);
    expect(storedFile(result.preRollback.id, 'logo.png')).toEqual(pngV2);
    expect(storedFile(result.preRollback.id, '.envrc').toString()).toBe('export MODE=two\n');

    const undo = await restore(result.preRollback.id, true);
    expect(undo.status, JSON.stringify(undo.outcomes)).toBe('complete');
    expect(readFileSync(path.join(project, '.envrc'), 'utf8')).toBe('export MODE=two\n');
    expect(readFileSync(path.join(project, 'logo.png'))).toEqual(pngV2);
  });

  it('without consent to write secrets, .envrc is left alone and never stored; logo.png still comes back', async () => {
    writeFileSync(path.join(project, '.envrc'), 'export MODE=one\n');
    writeFileSync(path.join(project, 'logo.png'), pngV1);
    const id = hermesSharedCheckpoint(hermesHome, project, 'before write_file', { seconds: 1_700_000_000 }) ?? '';
    writeFileSync(path.join(project, '.envrc'), 'export MODE=two\n');
    writeFileSync(path.join(project, 'logo.png'), pngV2);

    const result = await restore(id, false);
    expect(result.status).toBe('incomplete');
    expect(result.outcomes.map((outcome) => `${outcome.result}:${outcome.reason ?? ''} ${outcome.path}`)).toEqual([
      'skipped:secret .envrc',
      'done: logo.png',
    ]);
    expect(readFileSync(path.join(project, '.envrc'), 'utf8')).toBe('export MODE=two\n');
    expect(readFileSync(path.join(project, 'logo.png'))).toEqual(pngV1);
    expect(() => storedFile(result.preRollback.id, '.envrc')).toThrow();
  });
});

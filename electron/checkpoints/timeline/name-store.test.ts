import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/errors';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { nameFile } from './name-store';
import { dirHash } from '../../git-store/store-layout';
import { runGit, writeFiles } from '../test-support/restore-fixtures';

/** Names kept beside the commits: any checkpoint can be named and renamed, and the commit never changes. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let checkpointsRoot: string;
let engine: CheckpointService;
const renamed: unknown[] = [];
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-names-'));
  dir = path.join(root, 'project');
  checkpointsRoot = path.join(root, 'home', 'checkpoints');
  renamed.length = 0;
  engine = new CheckpointService({
    root: checkpointsRoot,
    logger: silentLogger,
    events: { emit: (name, payload) => name === 'checkpoints:renamed' && renamed.push(payload) },
  });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

async function checkpoint(): Promise<string> {
  const outcome = await engine.checkpoint(dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  return outcome.checkpoint.id;
}

describe('checkpoint names', () => {
  it('names, renames and un-names a checkpoint; the list shows it; another process reads it; the commit stays the same', async () => {
    writeFiles(dir, { 'a.txt': 'one\n' });
    const first = await checkpoint();
    writeFiles(dir, { 'a.txt': 'two\n' });
    await checkpoint();
    const commitBefore = runGit(['--git-dir', engine.gitdir, 'cat-file', '-p', first]);

    expect(await engine.rename(dir, '2', '  before the refactor  ')).toEqual({
      dir,
      id: first,
      name: 'before the refactor',
      changed: true,
    });
    expect(await engine.rename(dir, first.slice(0, 8), 'before the refactor')).toMatchObject({ changed: false });
    const listed = await engine.list(dir);
    expect(listed.map((entry) => entry.name)).toEqual([undefined, 'before the refactor']);
    expect(JSON.parse(readFileSync(nameFile(checkpointsRoot, dirHash(dir)), 'utf8'))).toEqual({
      [first]: 'before the refactor',
    });
    expect(renamed).toEqual([{ dir, id: first, name: 'before the refactor' }]);

    const other = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
    try {
      expect((await other.list(dir)).map((entry) => entry.name)).toEqual([undefined, 'before the refactor']);
    } finally {
      await other.dispose();
    }

    expect(await engine.rename(dir, first, '')).toEqual({ dir, id: first, changed: true });
    expect((await engine.list(dir)).map((entry) => entry.name)).toEqual([undefined, undefined]);
    expect(runGit(['--git-dir', engine.gitdir, 'cat-file', '-p', first])).toBe(commitBefore);
  });

  it('refuses a name with control characters or one too long, and a checkpoint that does not exist', async () => {
    writeFiles(dir, { 'a.txt': 'one\n' });
    await checkpoint();
    const codeOf = async (promise: Promise<unknown>): Promise<string> =>
      promise.then(
        () => 'ok',
        (error: unknown) => (isAppError(error) ? `${error.code}: ${error.message}` : 'bug'),
      );
    expect(await codeOf(engine.rename(dir, '1', 'two\nlines'))).toBe(
      'invalid_request: A checkpoint name is one line of text without control characters (no newlines or tabs). Type it again without them.',
    );
    expect(await codeOf(engine.rename(dir, '1', 'x'.repeat(201)))).toBe(
      'invalid_request: A checkpoint name is at most 200 characters; this one has 201.',
    );
    expect(await codeOf(engine.rename(dir, '5', 'name'))).toMatch(/^invalid_request: .*1/);
  });
});

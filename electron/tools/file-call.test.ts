import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { preparePatch } from './patch/prepare';
import { prepareReadFile } from './read-file/prepare';
import type { ExecutionSession, PreparedCall } from './tool-adapter';
import { prepareWriteFile } from './write-file/prepare';
import { testSession } from './test-support/test-session';

let base: string;
let remove: () => Promise<void>;
let workspace: string;
let outside: string;
let session: ExecutionSession;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-file-adapters-'));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(workspace, 'sub'), { recursive: true });
  mkdirSync(outside);
  for (const [folder, text] of [
    [path.join(workspace, 'sub'), 'inside'],
    [outside, 'OUTSIDE SECRET'],
  ] as const) {
    writeFileSync(path.join(folder, 'r.txt'), `${text}\n`);
    writeFileSync(path.join(folder, 'p.txt'), 'value: a\n');
  }
  session = testSession(workspace, path.join(base, 'home'));
});
afterEach(async () => {
  await remove();
});

/** Replaces ws/sub by a symlink to the outside folder (the folder parked inside the workspace). */
function swapSubForLink(): void {
  renameSync(path.join(workspace, 'sub'), path.join(workspace, 'parked'));
  symlinkSync(outside, path.join(workspace, 'sub'));
}

const calls: { name: string; prepare: () => Promise<PreparedCall> }[] = [
  { name: 'write_file', prepare: () => prepareWriteFile({ path: 'sub/new.txt', content: 'escaped' }, session) },
  {
    name: 'patch',
    prepare: () => preparePatch({ path: 'sub/p.txt', old_string: 'value: a', new_string: 'value: pwned' }, session),
  },
  { name: 'read_file', prepare: () => prepareReadFile({ path: 'sub/r.txt' }, session) },
];

describe('file tools resolve their target once, in prepare, and run on exactly that', () => {
  it('prepare resolves the path, and what the checkpoint, the locks and policy see is the file run writes', async () => {
    const prepared = await prepareWriteFile({ path: './sub/../sub/a.txt', content: 'a' }, session);
    const file = path.join(workspace, 'sub', 'a.txt');
    expect(prepared).toMatchObject({
      subject: { paths: [{ absolute: file, root: workspace }] },
      checkpoint: { paths: [file] },
      written: [file],
    });
    expect(await prepared.run({ signal: new AbortController().signal })).toMatchObject({ path: file, created: true });
    expect(readFileSync(file, 'utf8')).toBe('a');
  });

  it.each(calls)(
    '$name refuses (conflict) when the folder became a symlink to outside after prepare',
    async ({ prepare }) => {
      const prepared = await prepare();
      swapSubForLink();
      await expect(prepared.run({ signal: new AbortController().signal })).rejects.toMatchObject({ code: 'conflict' });
      expect(readdirSync(outside).sort()).toEqual(['p.txt', 'r.txt']);
      expect(readFileSync(path.join(outside, 'p.txt'), 'utf8')).toBe('value: a\n');
      expect(readdirSync(path.join(workspace, 'parked')).sort()).toEqual(['p.txt', 'r.txt']);
    },
  );

  it.each(calls)(
    '$name refuses (conflict) when the folder was replaced by another one at the same path after prepare',
    async ({ prepare }) => {
      const prepared = await prepare();
      renameSync(path.join(workspace, 'sub'), path.join(workspace, 'parked'));
      mkdirSync(path.join(workspace, 'sub'));
      writeFileSync(path.join(workspace, 'sub', 'r.txt'), 'not what was approved\n');
      writeFileSync(path.join(workspace, 'sub', 'p.txt'), 'value: a\n');
      await expect(prepared.run({ signal: new AbortController().signal })).rejects.toMatchObject({ code: 'conflict' });
      expect(readdirSync(path.join(workspace, 'sub')).sort()).toEqual(['p.txt', 'r.txt']);
      expect(readFileSync(path.join(workspace, 'sub', 'p.txt'), 'utf8')).toBe('value: a\n');
    },
  );

  it('read_file never follows the file itself swapped for a symlink to outside after prepare', async () => {
    const prepared = await prepareReadFile({ path: 'sub/r.txt' }, session);
    renameSync(path.join(workspace, 'sub', 'r.txt'), path.join(workspace, 'sub', 'kept.txt'));
    symlinkSync(path.join(outside, 'r.txt'), path.join(workspace, 'sub', 'r.txt'));
    await expect(prepared.run({ signal: new AbortController().signal })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.not.stringContaining('SECRET') as unknown,
    });
  });

  it('write_file refuses a trailing separator in prepare, naming the tool and the field', async () => {
    await expect(prepareWriteFile({ path: 'sub/newdir/', content: 'x' }, session)).rejects.toMatchObject({
      code: 'invalid_request',
      details: { tool: 'write_file', field: 'path', path: 'sub/newdir/' },
    });
  });
});

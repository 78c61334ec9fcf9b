import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { RefStore } from '../../git-store/ref-store';
import { droppedRefsFolder } from '../../git-store/store-layout';
import { git } from '../test-support/store-fixtures';
import { keepDropped } from './dropped-area';

describe("a cut's dropped ref name", () => {
  let gitdir: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    let base: string;
    ({ dir: base, remove } = await makeTempDir('vigil-dropped-name-'));
    gitdir = path.join(base, 'store');
    git(['init', '--bare', '--quiet', gitdir]);
  });
  afterEach(async () => {
    await remove();
  });

  it('never takes the name of a file already in the folder, even one that holds no commit id', async () => {
    const refs = new RefStore(gitdir);
    const dirhash = '0123456789abcdef';
    const now = 1_796_000_000_000;
    const folder = path.join(gitdir, droppedRefsFolder, dirhash);
    mkdirSync(folder, { recursive: true });
    // A file of the folder that is not a ref (damaged, or put there by hand): its name is taken all the same.
    writeFileSync(path.join(folder, `${now}-retention`), 'not an object id\n');
    const tree = git(['--git-dir', gitdir, 'hash-object', '-t', 'tree', '-w', '/dev/null']);
    const head = git(['--git-dir', gitdir, 'commit-tree', tree, '-m', 'a batch']);

    const first = await keepDropped(refs, dirhash, head, 'retention', now);
    const second = await keepDropped(refs, dirhash, head, 'retention', now);

    expect([first, second]).toEqual([`${now}-retention-1`, `${now}-retention-2`]);
    expect(readFileSync(path.join(folder, `${now}-retention`), 'utf8')).toBe('not an object id\n');
    expect(git(['--git-dir', gitdir, 'for-each-ref', '--format=%(refname) %(objectname)', droppedRefsFolder])).toBe(
      [
        `${droppedRefsFolder}/${dirhash}/${now}-retention-1 ${head}`,
        `${droppedRefsFolder}/${dirhash}/${now}-retention-2 ${head}`,
      ].join('\n'),
    );
  });
});

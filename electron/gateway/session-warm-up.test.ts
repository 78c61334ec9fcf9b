import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VigilAgentClient } from '../../agent-client/vigil-agent-client';
import { hashObject } from '../git-store/git-objects';
import { startServeFixture, type ServeFixture } from './test-support/gateway-fixture';

let fixture: ServeFixture;
let client: VigilAgentClient | undefined;

beforeEach(async () => {
  fixture = await startServeFixture();
});

afterEach(async () => {
  await client?.close();
  await fixture.close();
});

function git(args: readonly string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } }).trim();
}

const store = (): string => path.join(fixture.home, 'checkpoints', 'store');

/** How many of `oids` the checkpoint store holds (git's own reading of it). */
function storedCount(oids: readonly string[]): number {
  const out = execFileSync('git', ['--git-dir', store(), 'cat-file', '--batch-check'], {
    input: `${oids.join('\n')}\n`,
    encoding: 'utf8',
  });
  return out.split('\n').filter((line) => / blob /.test(line)).length;
}

/** The timelines in the store (refs/vigil/<dirhash>). */
function timelines(): string[] {
  const out = git(['--git-dir', store(), 'for-each-ref', '--format=%(refname)', 'refs/vigil/']);
  return out === '' ? [] : out.split('\n').filter((ref) => /^refs\/vigil\/[0-9a-f]{16}$/.test(ref));
}

describe('a session opened in a folder with no timeline yet', () => {
  it("starts the folder's first snapshot at once: its files are stored before the first write, and that write's checkpoint is of the folder as it was", async () => {
    const contents = new Map<string, string>();
    for (let index = 0; index < 120; index += 1) contents.set(`src/d${index % 6}/f${index}.txt`, `line ${index}\n`);
    for (const [rel, content] of contents) {
      await mkdir(path.dirname(path.join(fixture.workspace, rel)), { recursive: true });
      await writeFile(path.join(fixture.workspace, rel), content);
    }
    const blobs = [...contents.values()].map((content) => hashObject('blob', Buffer.from(content)));
    const shadow = path.join(fixture.scratch, 'shadow');
    git(['init', '--quiet', '--bare', shadow]);
    const gitEnv = { GIT_DIR: shadow, GIT_WORK_TREE: fixture.workspace, GIT_INDEX_FILE: path.join(shadow, 'index') };
    git(['add', '-A'], gitEnv);
    const treeBefore = git(['write-tree'], gitEnv);

    client = await VigilAgentClient.connect({ url: fixture.baseUrl, token: fixture.agentToken, reconnect: false });
    const session = await client.openSession({ agent: 'warm-agent', roots: [fixture.workspace] });
    // The store fills with the folder's files with no call made, and no timeline entry is created for it.
    while (storedCount(blobs) < blobs.length) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(timelines()).toEqual([]);

    await session.beginTurn('edit one file');
    const [outcome] = await session.callTools([
      { callId: 'w1', name: 'write_file', arguments: { path: 'src/d0/f0.txt', content: 'changed\n' } },
    ]);
    expect(outcome?.result.ok).toBe(true);
    const [timeline] = timelines();
    expect(timelines()).toHaveLength(1);
    const log = git(['--git-dir', store(), 'log', '--format=%T %B', timeline ?? 'missing']);
    expect(log.startsWith(`${treeBefore} before write_file`)).toBe(true);
    expect(log).toContain('Vigil-Stats: files=120 insertions=120 deletions=0');
    expect(git(['--git-dir', store(), 'rev-list', '--count', timeline ?? 'missing'])).toBe('1');
    expect(git(['--git-dir', store(), 'fsck', '--no-dangling'])).toBe('');
  });
});

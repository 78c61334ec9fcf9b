import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

describe('vigil checkpoint and vigil checkpoints list|status|prune', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-cli-cp-'));
    dir = path.join(base, 'project');
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'src/a.txt'), 'one\n');
    writeFileSync(path.join(dir, '.env'), 'TOKEN=secret\n');
    env = { VIGIL_HOME: path.join(base, 'home') };
  });
  afterEach(async () => {
    await remove();
  });

  it('takes checkpoints, lists them numbered newest first, and reports the store', async () => {
    const first = await runVigil(['checkpoint', dir], { env });
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/^Checkpoint [0-9a-f]{8} of .*project: manual checkpoint \(1 file, \+1\/-0\)\.$/m);
    writeFileSync(path.join(dir, 'src/a.txt'), 'one\ntwo\n');
    expect((await runVigil(['checkpoint', dir, '--reason', 'before patch'], { env })).code).toBe(0);
    const unchanged = await runVigil(['checkpoint', dir], { env });
    expect(unchanged).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        /^Nothing changed since checkpoint [0-9a-f]{8}; no checkpoint taken\.$/m,
      ) as unknown,
    });

    const [list, json, status, statusJson] = await Promise.all([
      runVigil(['checkpoints', 'list', dir], { env }),
      runVigil(['checkpoints', 'list', dir, '--json'], { env }),
      runVigil(['checkpoints', 'status', dir], { env }),
      runVigil(['checkpoints', 'status', '--json'], { env }),
    ]);
    expect(list.code).toBe(0);
    const lines = list.stdout.split('\n').filter((line) => /^\s+\d+\. /.test(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^ {2}1\. [0-9a-f]{8} {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}vigil {3}before patch {2}\(1 file, \+1\/-0\) {2}\[the CLI\]$/,
    );
    expect(lines[1]).toMatch(/^ {2}2\. [0-9a-f]{8} .* Checkpoint taken by hand {2}\(1 file, \+1\/-0\) {2}\[the CLI\]$/);
    const parsed = JSON.parse(json.stdout) as { total: number; entries: Array<{ reason: string; skipped: unknown[] }> };
    expect(parsed.total).toBe(2);
    expect(parsed.entries.map((entry) => entry.reason)).toEqual(['before patch', 'manual checkpoint']);
    expect(parsed.entries[0]?.skipped).toEqual([{ path: '.env', reason: 'excluded' }]);
    expect(status.stdout).toContain('(2 checkpoint(s)');
    expect(status.stdout).toContain('.env  (excluded)');
    expect(JSON.parse(statusJson.stdout)).toMatchObject({
      directories: [{ count: 2, skipped: [{ path: '.env', reason: 'excluded' }] }],
    });

    const prune = await runVigil(['checkpoints', 'prune', '--json'], { env });
    expect(JSON.parse(prune.stdout)).toMatchObject({ droppedCheckpoints: 0 });
  });

  it('keeps as many checkpoints per directory and skips files as big as config.json says', async () => {
    mkdirSync(env['VIGIL_HOME'] ?? '', { recursive: true });
    writeFileSync(
      path.join(env['VIGIL_HOME'] ?? '', 'config.json'),
      JSON.stringify({ checkpoints: { maxSnapshots: 2, maxFileMiB: 0.001 } }),
    );
    writeFileSync(path.join(dir, 'big-fixture.txt'), Buffer.alloc(2_000, 1));
    for (const line of ['two\n', 'three\n', 'four\n']) {
      writeFileSync(path.join(dir, 'src/a.txt'), line);
      expect((await runVigil(['checkpoint', dir], { env })).code).toBe(0);
    }
    const listed = JSON.parse((await runVigil(['checkpoints', 'list', dir, '--json'], { env })).stdout) as {
      total: number;
      entries: Array<{ skipped: unknown[] }>;
    };
    expect(listed.total).toBe(2);
    expect(listed.entries[0]?.skipped).toContainEqual(
      expect.objectContaining({ path: 'big-fixture.txt', reason: 'oversize' }),
    );
    const status = await runVigil(['checkpoints', 'status'], { env });
    expect(status.stdout).toContain('Retention: 2 checkpoints per directory');

    writeFileSync(
      path.join(env['VIGIL_HOME'] ?? '', 'config.json'),
      JSON.stringify({ checkpoints: { maxSnapshots: 0 } }),
    );
    const refused = await runVigil(['checkpoint', dir], { env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('checkpoints.maxSnapshots');
  });

  it('fails clearly on unknown directories, refused ones and wrong usage', async () => {
    const [unknown, never, root, missingArgument, badLimit] = await Promise.all([
      runVigil(['checkpoint', path.join(base, 'nope')], { env }),
      runVigil(['checkpoints', 'list', dir], { env }),
      runVigil(['checkpoint', '/'], { env }),
      runVigil(['checkpoints', 'list'], { env }),
      runVigil(['checkpoints', 'list', dir, '--limit', '0'], { env }),
    ]);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('does not exist') as unknown });
    expect(never).toMatchObject({ code: 1, stderr: expect.stringContaining('never checkpointed') as unknown });
    expect(root).toMatchObject({ code: 1, stderr: expect.stringContaining('Refusing to checkpoint /') as unknown });
    expect(missingArgument).toMatchObject({ code: 2, stderr: expect.stringContaining('missing DIR') as unknown });
    expect(badLimit).toMatchObject({ code: 2, stderr: expect.stringContaining('--limit') as unknown });
  });
});

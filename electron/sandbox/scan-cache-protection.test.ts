import { existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RootScanCache } from './root-scan-cache';
import { createSandboxWorld, type SandboxWorld } from './test-support/sandbox-fixture';

/**
 * The sandbox keeps what the workspace roots held between commands (issue 31): a repository or
 * agent settings made after the cache was filled must be as read-only at the next command as a
 * full look would make them. The cache's clock runs ahead, so it trusts every folder whose times
 * did not change: only a folder's own change can make it look again.
 */
const worlds: SandboxWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

let tick = 1_000_000_000;

function ageFolders(root: string): void {
  const folders = [root];
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true }))
    if (entry.isDirectory()) folders.push(path.join(entry.parentPath, entry.name));
  for (const folder of folders) utimesSync(folder, (tick += 1), tick);
}

describe.runIf(process.platform === 'linux')('the sandbox with its scan cache', () => {
  it('protects a nested repository and agent settings made after the cache was filled, at the next command', async () => {
    const scans = new RootScanCache({ now: () => Date.now() + 60_000 });
    const w = await createSandboxWorld({ 'pkg/index.js': 'x\n', 'pkg/deep/more/a.js': 'a\n' }, { scans });
    worlds.push(w);
    ageFolders(w.workspace);
    expect(await w.run('echo filled')).toMatchObject({ exit_code: 0 });
    const filled = scans.folderReads;
    expect(await w.run('echo cached')).toMatchObject({ exit_code: 0 });
    // Nothing changed but the root itself, where the sandbox mounts over absent settings for the length of a command.
    expect(scans.folderReads).toBeLessThanOrEqual(filled + 1);
    // The first command may make them: nothing protected them yet.
    const planted = await w.run(
      'git init -q pkg/deep/sub && mkdir -p pkg/deep/more/.claude && echo "{}" > pkg/deep/more/.claude/settings.json && echo "#!/bin/sh" > pkg/deep/.envrc',
    );
    expect(planted).toMatchObject({ exit_code: 0 });
    const config = readFileSync(path.join(w.workspace, 'pkg/deep/sub/.git/config'), 'utf8');
    const result = await w.run(
      [
        'echo evil > pkg/deep/more/.claude/settings.json',
        'echo evil > pkg/deep/.envrc',
        'mkdir -p pkg/deep/sub/.git/hooks',
        'echo evil > pkg/deep/sub/.git/hooks/post-checkout',
        'echo evil >> pkg/deep/sub/.git/config',
        'true',
      ].join('; '),
    );
    expect(result.stderr).toMatch(/Read-only file system/u);
    expect(readFileSync(path.join(w.workspace, 'pkg/deep/more/.claude/settings.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(path.join(w.workspace, 'pkg/deep/.envrc'), 'utf8')).toBe('#!/bin/sh\n');
    expect(existsSync(path.join(w.workspace, 'pkg/deep/sub/.git/hooks/post-checkout'))).toBe(false);
    expect(readFileSync(path.join(w.workspace, 'pkg/deep/sub/.git/config'), 'utf8')).toBe(config);
  });
});

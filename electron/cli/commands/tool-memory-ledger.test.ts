import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

describe('vigil tool memory', () => {
  let remove: () => Promise<void>;
  let base: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    const temp = await makeTempDir('vigil-tool-ledger-');
    remove = temp.remove;
    base = temp.dir;
    env = {
      VIGIL_HOME: path.join(base, 'home'),
      HOME: path.join(base, 'user'),
      HERMES_HOME: path.join(base, 'no-hermes'),
    };
  });
  afterEach(async () => {
    await remove();
  });

  it(
    'records its writes in the write ledger, so a restore plan does not take them for edits made outside any agent',
    { timeout: 120_000 },
    async () => {
      const memories = path.join(base, 'home', 'memories');
      expect((await runVigil(['memory', 'add', 'first entry'], { env })).code).toBe(0);
      // A project folder of its own: a root holding the data folder or the home folder is refused.
      const project = path.join(base, 'project');
      await mkdir(project);
      const call = await runVigil(
        [
          'tool',
          'memory',
          '--args',
          '{"action": "add", "target": "memory", "content": "second entry"}',
          '--cwd',
          project,
        ],
        { env },
      );
      expect(call.code).toBe(0);
      // Checkpoints: 1 after the tool's add, 2 after the first add, 3 before it.
      const plan = await runVigil(['checkpoints', 'restore', memories, '2', '--dry-run', '--json'], { env });
      expect(plan.code).toBe(0);
      const entries = (
        JSON.parse(plan.stdout) as { entries: Array<{ path: string; action: string; isChangedOutsideAgents: boolean }> }
      ).entries;
      // Checkpoint 2 holds MEMORY.md before the tool's change: restoring it rewrites the file Vigil itself wrote.
      expect(entries).toEqual([
        expect.objectContaining({ path: 'MEMORY.md', action: 'restore', isChangedOutsideAgents: false }),
      ]);
    },
  );
});

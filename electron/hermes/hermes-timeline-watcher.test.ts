import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckpointEntry } from '../checkpoints';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { HermesCheckpoints } from './hermes-checkpoints';
import { watchHermesTimelines } from './hermes-timeline-watcher';
import { hermesSharedCheckpoint, hermesTrim } from './test-support/hermes-fixtures';

let base: string;
let remove: () => Promise<void>;
let home: string;
let project: string;
let hermes: HermesCheckpoints;
let stop: () => void;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-hermes-watch-'));
  home = path.join(base, 'hermes');
  project = path.join(base, 'project');
  mkdirSync(project);
  hermes = new HermesCheckpoints({ env: { HERMES_HOME: home }, logger: silentLogger });
});
afterEach(async () => {
  stop();
  await hermes.dispose();
  await remove();
});

describe('Hermes checkpoints taken while Vigil runs', () => {
  it('are reported once each, newest only after Hermes rewrites its history to prune', async () => {
    const edit = (text: string): void => writeFileSync(path.join(project, 'a.txt'), text);
    edit('one\n');
    hermesSharedCheckpoint(home, project, 'before write_file', { seconds: 1_700_000_000 });
    await hermes.entries(project);

    const reported: CheckpointEntry[] = [];
    const waiters: (() => void)[] = [];
    const next = (): Promise<void> => new Promise((resolve) => waiters.push(resolve));
    stop = watchHermesTimelines({
      hermes,
      logger: silentLogger,
      intervalMs: 20,
      onCreated: (entry) => (reported.push(entry), waiters.shift()?.()),
    });

    // Taken after the timeline was shown, before the watcher first looked: still reported.
    edit('two\n');
    let arrived = next();
    const second = hermesSharedCheckpoint(home, project, 'before patch', { seconds: 1_700_000_060 });
    await arrived;
    expect(reported.map((entry) => [entry.id, entry.source, entry.stats.files])).toEqual([[second, 'hermes', 1]]);

    hermesTrim(home, project, 1);
    edit('three\n');
    arrived = next();
    const third = hermesSharedCheckpoint(home, project, 'before terminal: make', { seconds: 1_700_000_120 });
    await arrived;
    expect(reported.map((entry) => entry.id)).toEqual([second, third]);
  });
});

import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hermesDrifts, hermesEntries } from '../memory/test-support/hermes-drift-rule';
import { repoRoot, runVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';

/**
 * Hermes Agent adding memory entries (its own read-modify-write under its flock, as
 * hermes_memory_tool.py does it) while `vigil memory add` processes add theirs to the same file:
 * every entry survives, and no `.bak` appears, since no content was ever at risk.
 */

const hermesTool = path.join(repoRoot, 'electron/hermes/test-support/hermes_memory_tool.py');
const run = promisify(execFile);

let base: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-memory-race-'));
});
afterEach(async () => {
  await remove();
});

describe('Hermes and Vigil adding to one MEMORY.md at once', () => {
  it('keep every entry, and leave no .bak behind when nothing drifted (16 vigil processes, 4 Hermes processes × 6 adds)', async () => {
    const hermesHome = path.join(base, 'hermes');
    const memories = path.join(hermesHome, 'memories');
    mkdirSync(memories, { recursive: true });
    const env = { HOME: path.join(base, 'home'), VIGIL_HOME: path.join(base, 'vigil'), HERMES_HOME: hermesHome };
    const vigilEntries = Array.from({ length: 16 }, (_, index) => `vigil note ${index}`);
    const hermesEntriesAdded = Array.from({ length: 4 }, (_, process) =>
      Array.from({ length: 6 }, (__, index) => `hermes note ${process}-${index}`),
    );
    const runs = await Promise.all([
      ...vigilEntries.map((entry) => runVigil(['memory', 'add', '--dir', memories, entry], { env })),
      ...hermesEntriesAdded.map((entries) =>
        run('python3', [hermesTool, 'add', path.join(memories, 'MEMORY.md'), ...entries]).then(() => ({
          code: 0,
          stderr: '',
        })),
      ),
    ]);
    for (const finished of runs) expect(finished.code, finished.stderr).toBe(0);

    const bytes = readFileSync(path.join(memories, 'MEMORY.md'));
    expect(new Set(hermesEntries(bytes))).toEqual(new Set([...vigilEntries, ...hermesEntriesAdded.flat()]));
    expect(hermesDrifts(bytes, 2200)).toBe(false);
    expect(readdirSync(memories).filter((name) => name.includes('.bak'))).toEqual([]);
  }, 180_000);
});

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeTempDir } from '../test-support/temp-dir';
import { LiveConfig, type ConfigSectionSpec } from './live-config';

/** A section whose schema counts the times it ran. */
function counted(name: string, isCheckedOnly: boolean): { spec: ConfigSectionSpec; runs: () => number } {
  let runs = 0;
  const schema = z
    .object({ limit: z.number().default(1) })
    .strict()
    .transform((value) => {
      runs += 1;
      return value;
    });
  return { spec: { name, schema, ...(isCheckedOnly ? { isCheckedOnly } : {}) }, runs: () => runs };
}

describe('LiveConfig', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let file: string;

  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir('vigil-live-config-'));
    file = path.join(dir, 'config.json');
  });
  afterEach(async () => {
    await remove();
  });

  it("parses a held section once at open, and checks the others only when their problem is asked for, against open's document", async () => {
    await writeFile(file, JSON.stringify({ held: { limit: 5 }, checked: { limit: 'many' } }));
    const held = counted('held', false);
    const checked = counted('checked', true);
    const config = await LiveConfig.open(file, [held.spec, checked.spec]);
    expect(config.section('held', held.spec.schema)).toEqual({ limit: 5 });
    // A one-shot checkpoint reads its own section and never asks for the problem: nothing else runs.
    expect(held.runs()).toBe(1);
    expect(checked.runs()).toBe(0);
    // Fixed on disk since: the problem is still open's document's (as when open checked everything at once).
    await writeFile(file, JSON.stringify({ held: { limit: 5 } }));
    expect(config.problem()).toMatchObject({ field: 'checked.limit' });
    expect(config.problem()?.message).toContain('The last valid "checked" settings stay in force');
    // Asked again: the same problem, not checked again; a reload reads the file anew.
    const first = config.problem();
    expect(config.problem()).toBe(first);
    expect(await config.reload()).toEqual([]);
    expect(config.problem()).toBeNull();
  });

  it('still refuses to open when a held section is invalid, and reports nothing when all are valid', async () => {
    await writeFile(file, JSON.stringify({ held: { limit: 'x' } }));
    await expect(LiveConfig.open(file, [counted('held', false).spec])).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await writeFile(file, JSON.stringify({ held: { limit: 2 }, checked: {} }));
    const checked = counted('checked', true);
    const config = await LiveConfig.open(file, [counted('held', false).spec, checked.spec]);
    expect(config.problem()).toBeNull();
    expect(checked.runs()).toBe(1);
  });
});

import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileIdentity } from '../../files/file-identity';
import { makeTempDir } from '../../test-support/temp-dir';
import { seededRandom, testSeed } from '../../test-support/seeded-random';
import { createWriteLedger } from './restore-write-ledger';

let root: string;
let remove: () => Promise<void>;
let file: string;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-ledger-'));
  file = path.join(root, 'written.jsonl');
});
afterEach(async () => {
  await remove();
});

/** Writes a file and returns its path and identity now. */
async function version(name: string, content: string) {
  const target = path.join(root, name);
  writeFileSync(target, content);
  return { path: target, identity: await readFileIdentity(target) };
}

describe('the write ledger shared by processes', () => {
  it("sees what another process appends after it first read the file, a line cut short once it is whole, and a compacted file's records", async () => {
    const writer = createWriteLedger(file);
    const reader = createWriteLedger(file);
    const first = await version('a.txt', 'a');
    await writer.recordObserved([first], { kind: 'cli' });
    expect((await reader.view())(first.path, first.identity)?.actor).toEqual({ kind: 'cli' });

    // Appended by someone else since: the reader's next view has it, and still has the first.
    const second = await version('b.txt', 'b');
    await writer.recordObserved([second], { kind: 'app' });
    const afterAppend = await reader.view();
    expect(afterAppend(second.path, second.identity)?.actor).toEqual({ kind: 'app' });
    expect(afterAppend(first.path, first.identity)?.actor).toEqual({ kind: 'cli' });

    // A line still being written (no newline yet) is not taken; once finished, it is.
    const third = await version('c.txt', 'c');
    const line = `${JSON.stringify({ p: third.path, i: third.identity, t: Date.now(), a: { kind: 'vigil' } })}\n`;
    appendFileSync(file, line.slice(0, 20));
    expect((await reader.view())(third.path, third.identity)).toBeUndefined();
    appendFileSync(file, line.slice(20));
    expect((await reader.view())(third.path, third.identity)?.actor).toEqual({ kind: 'vigil' });

    // Another process compacted it (a new file renamed over): read whole again, so a record it dropped is gone.
    const compacted = path.join(root, 'compacted.jsonl');
    writeFileSync(compacted, line);
    renameSync(compacted, file);
    const afterCompaction = await reader.view();
    expect(afterCompaction(third.path, third.identity)?.actor).toEqual({ kind: 'vigil' });
    expect(afterCompaction(first.path, first.identity)).toBeUndefined();
  });

  it("keeps its own appends without reading them back, and still reads another process's lines appended before or between them", async () => {
    const ledger = createWriteLedger(file);
    const other = createWriteLedger(file);
    const first = await version('a.txt', 'a');
    await ledger.recordObserved([first], { kind: 'cli' });
    expect((await ledger.view())(first.path, first.identity)?.actor).toEqual({ kind: 'cli' });

    // Its own append right after a view: taken as appended.
    const second = await version('b.txt', 'b');
    await ledger.recordObserved([second], { kind: 'app' });
    const own = await ledger.view();
    expect(own(second.path, second.identity)?.actor).toEqual({ kind: 'app' });
    expect(own(first.path, first.identity)?.actor).toEqual({ kind: 'cli' });

    // Another process appended before this one's next append: both are seen, and a later version wins.
    const third = await version('c.txt', 'c');
    await other.recordObserved([third], { kind: 'vigil' });
    const rewritten = await version('a.txt', 'a again');
    await ledger.recordObserved([rewritten], { kind: 'app' });
    const both = await ledger.view();
    expect(both(third.path, third.identity)?.actor).toEqual({ kind: 'vigil' });
    expect(both(rewritten.path, rewritten.identity)?.actor).toEqual({ kind: 'app' });
    expect(both(first.path, first.identity)).toBeUndefined();

    // Appends of its own on both sides of another process's line: the line in between is seen.
    const fourth = await version('d.txt', 'd');
    const fifth = await version('e.txt', 'e');
    await Promise.all([
      ledger.recordObserved([fourth], { kind: 'cli' }),
      other.recordObserved([fifth], { kind: 'cli' }),
    ]);
    const sixth = await version('f.txt', 'f');
    await ledger.recordObserved([sixth], { kind: 'cli' });
    const all = await ledger.view();
    for (const item of [fourth, fifth, sixth, third]) expect(all(item.path, item.identity)).toBeDefined();
    expect(all(second.path, second.identity)?.actor).toEqual({ kind: 'app' });
  });
});

describe('the ledger cache against a fresh read (differential, seeded)', () => {
  it("after any mix of its own appends and other processes', a ledger sees exactly what a new reader of the file sees", async () => {
    const seed = testSeed(3100);
    const random = seededRandom(seed);
    const mine = createWriteLedger(file);
    const others = [createWriteLedger(file), createWriteLedger(file)];
    const files: { path: string; identity: Awaited<ReturnType<typeof readFileIdentity>> }[] = [];
    for (let step = 0; step < 60; step += 1) {
      const written = await version(`f${String(Math.floor(random() * 12))}.txt`, `step ${String(step)}`);
      files.push(written);
      const writer = random() < 0.5 ? mine : (others[Math.floor(random() * others.length)] ?? mine);
      await writer.recordObserved([written], random() < 0.5 ? { kind: 'cli' } : { kind: 'app' });
      if (random() < 0.4) continue;
      const cached = await mine.view();
      const fresh = await createWriteLedger(file).view();
      for (const item of files)
        expect(cached(item.path, item.identity), `seed ${String(seed)}, step ${String(step)}, ${item.path}`).toEqual(
          fresh(item.path, item.identity),
        );
    }
  });
});

import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryMutation, MemoryTarget } from '../../shared/contract/memory-contract';
import { makeTempDir } from '../test-support/temp-dir';
import { joinEntries } from './memory-format';
import type { MemoryService } from './memory-service';
import { backupsIn, memoryServiceFor, rejection } from './test-support/memory-fixtures';

let temp: { dir: string; remove: () => Promise<void> };
let memory: MemoryService;
let file: string;

beforeEach(async () => {
  temp = await makeTempDir();
  memory = await memoryServiceFor(temp.dir);
  file = path.join(temp.dir, 'MEMORY.md');
});
afterEach(async () => {
  await memory.dispose();
  await temp.remove();
});

const mutations: ReadonlyArray<readonly [string, MemoryMutation]> = [
  ['replace', { action: 'replace', oldText: 'tea', content: 'likes coffee' }],
  ['remove', { action: 'remove', oldText: 'tea' }],
  ['batch', { action: 'batch', operations: [{ action: 'add', content: 'a new fact' }] }],
];

describe('the behaviour table of seed 003', () => {
  it('a tool-shaped file works: add, replace, remove', async () => {
    await memory.mutate(temp.dir, 'memory', {
      action: 'batch',
      operations: [
        { action: 'add', content: 'likes tea' },
        { action: 'add', content: 'works on Vigil' },
      ],
    });
    const added = await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'prefers short answers 👍' });
    expect(added).toMatchObject({ outcome: 'changed', message: 'Entry added.', usage: { chars: 52, limit: 2200 } });
    // 52 characters as Hermes counts them; the emoji is two UTF-16 units, one character.
    expect(joinEntries(['likes tea', 'works on Vigil', 'prefers short answers 👍']).length).toBe(53);
    await memory.mutate(temp.dir, 'memory', { action: 'replace', oldText: 'tea', content: 'likes green tea' });
    await memory.mutate(temp.dir, 'memory', { action: 'remove', oldText: 'Vigil' });
    expect(await readFile(file, 'utf8')).toBe('likes green tea\n§\nprefers short answers 👍\n');
    // Every entry replaced or removed was Vigil's own text, so no backup was needed.
    expect(await backupsIn(temp.dir)).toEqual([]);
  });

  it('a tool-shaped file written by another tool works too, and what leaves it is kept', async () => {
    await writeFile(file, joinEntries(['likes tea', 'works on Vigil']));
    const replaced = await memory.mutate(temp.dir, 'memory', {
      action: 'replace',
      oldText: 'tea',
      content: 'likes green tea',
    });
    expect(replaced.preserved.map((item) => [item.reason, item.entries])).toEqual([['external-text', ['likes tea']]]);
    expect(await readFile(file, 'utf8')).toBe('likes green tea\n§\nworks on Vigil\n');
    // Once Vigil has written an entry, replacing it again needs no backup.
    expect(
      (await memory.mutate(temp.dir, 'memory', { action: 'replace', oldText: 'green', content: 'likes oolong' }))
        .preserved,
    ).toEqual([]);
  });

  for (const target of ['memory', 'user'] as const satisfies readonly MemoryTarget[]) {
    for (const [name, mutation] of mutations) {
      it(`a drifted ${target} file refuses ${name}: untouched, with a .bak and a remediation`, async () => {
        const target_file = path.join(temp.dir, target === 'memory' ? 'MEMORY.md' : 'USER.md');
        // Hermes's rule: spaces and a blank line around a § line, so a rewrite would change the file.
        const drifted = `likes tea  \n§\n\n## Notes pasted by hand\n- ${'x'.repeat(500)}\n`;
        await writeFile(target_file, drifted);
        const error = await rejection(memory.mutate(temp.dir, target, mutation));
        expect(error.code).toBe('conflict');
        expect(await readFile(target_file, 'utf8')).toBe(drifted);
        const details = error.details as {
          drift_backup: string;
          remediation: string;
          drift: { reasons: Array<{ kind: string }> };
        };
        expect(await readFile(details.drift_backup, 'utf8')).toBe(drifted);
        expect(path.basename(details.drift_backup)).toMatch(new RegExp(`^${path.basename(target_file)}\\.bak\\.`));
        expect(details.remediation).toContain('Adopt');
        expect(details.remediation).toContain(details.drift_backup);
        expect(details.drift.reasons.map((reason) => reason.kind)).toContain('not-round-trip');
        expect(error.message).toContain('Nothing was written');
      });
    }
  }

  it("an add to a file that drifted by Hermes's rule goes ahead as Hermes's add does: an append takes nothing out", async () => {
    await writeFile(file, 'likes tea  \n§\n\nuses pnpm\n');
    expect((await memory.read(temp.dir, 'memory')).drift.isDrifted).toBe(true);
    const result = await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'a new fact' });
    expect(result.outcome).toBe('changed');
    expect(await readFile(file, 'utf8')).toBe('likes tea\n§\nuses pnpm\n§\na new fact\n');
    expect(await backupsIn(temp.dir)).toEqual([]);
  });

  it('echo appends, editor saves with a final newline, and CRLF files never block an agent write', async () => {
    const shapes: ReadonlyArray<readonly [string, string, readonly string[]]> = [
      [
        'echo after a Vigil write',
        'likes tea\n§\nuses pnpm\n- deploys on Fridays\n',
        ['likes tea', 'uses pnpm\n- deploys on Fridays'],
      ],
      [
        'echo after a file with no final newline',
        'likes tea\n§\nuses pnpm- deploys on Fridays\n',
        ['likes tea', 'uses pnpm- deploys on Fridays'],
      ],
      ['an editor save with a final newline', 'likes tea\n§\nuses pnpm\n\n', ['likes tea', 'uses pnpm']],
      ['Windows line endings', 'likes tea\r\n§\r\nuses pnpm\r\n', ['likes tea', 'uses pnpm']],
    ];
    for (const [shape, text, entries] of shapes) {
      await writeFile(file, text);
      const view = await memory.read(temp.dir, 'memory');
      expect(view.drift, shape).toEqual({ isDrifted: false, reasons: [] });
      expect(view.entries, shape).toEqual(entries);
      const added = await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'a new fact' });
      expect(added.entries, shape).toEqual([...entries, 'a new fact']);
      const replaced = await memory.mutate(temp.dir, 'memory', {
        action: 'replace',
        oldText: 'new fact',
        content: 'a newer fact',
      });
      expect(replaced.outcome, shape).toBe('changed');
      const removed = await memory.mutate(temp.dir, 'memory', { action: 'remove', oldText: 'newer fact' });
      expect(removed.entries, shape).toEqual(entries);
      expect(await readFile(file, 'utf8'), shape).toBe(`${entries.join('\n§\n')}\n`);
    }
  });

  it('an empty file is no drift: add works, remove finds nothing, no .bak', async () => {
    await writeFile(file, '');
    expect((await memory.read(temp.dir, 'memory')).drift.isDrifted).toBe(false);
    expect((await rejection(memory.mutate(temp.dir, 'memory', { action: 'remove', oldText: 'x' }))).code).toBe(
      'no_match',
    );
    expect(await readFile(file, 'utf8')).toBe('');
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'first' });
    expect(await readFile(file, 'utf8')).toBe('first\n');
    expect(await backupsIn(temp.dir)).toEqual([]);
  });

  it('a missing file is no drift: remove creates nothing, add creates it with mode 0600', async () => {
    const view = await memory.read(temp.dir, 'memory');
    expect(view).toMatchObject({ exists: false, entries: [], drift: { isDrifted: false }, sha256: null });
    expect((await rejection(memory.mutate(temp.dir, 'memory', { action: 'remove', oldText: 'x' }))).code).toBe(
      'no_match',
    );
    await expect(stat(file)).rejects.toThrow();
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'first' });
    expect(await readFile(file, 'utf8')).toBe('first\n');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await backupsIn(temp.dir)).toEqual([]);
  });
});

describe('the reproduction of seed 003', () => {
  it('a stale session replacing its one entry after another appended 8 KB is refused; the 8 KB stays', async () => {
    const sessionB = await memoryServiceFor(temp.dir);
    try {
      const entryOfB =
        `Project codename is Bluebird; deploys go through the staging cluster first. ${'context '.repeat(30)}`.trim();
      await sessionB.mutate(temp.dir, 'memory', { action: 'add', content: entryOfB });
      // Session A appends ~8 KB of structured notes with the patch tool / cat >>: no § delimiters.
      const sections = ['Vendor Master', 'Standing Orders', 'Pin Board'].map(
        (title) => `\n## ${title}\n${`- ${title} item with details\n`.repeat(95)}`,
      );
      await appendFile(file, sections.join(''));
      const before = await readFile(file);
      expect(before.length).toBeGreaterThan(8000);
      const error = await rejection(
        sessionB.mutate(temp.dir, 'memory', {
          action: 'replace',
          oldText: 'Bluebird',
          content: 'Project codename is Bluebird (renamed Kestrel in May).',
        }),
      );
      expect(error.code).toBe('conflict');
      expect(
        (error.details as { drift: { reasons: Array<{ kind: string }> } }).drift.reasons.map((reason) => reason.kind),
      ).toContain('entry-over-limit');
      expect(await readFile(file)).toEqual(before);
      expect(await readFile((error.details as { drift_backup: string }).drift_backup)).toEqual(before);
    } finally {
      await sessionB.dispose();
    }
  });

  it('a small free-form append merged into an entry is kept in a .bak when a replace takes it out', async () => {
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'likes tea' });
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'uses vim' });
    await appendFile(file, 'remember: deploys only on Fridays\n');
    const result = await memory.mutate(temp.dir, 'memory', {
      action: 'replace',
      oldText: 'vim',
      content: 'uses neovim',
    });
    expect(result.outcome).toBe('changed');
    expect(result.preserved).toHaveLength(1);
    const [kept] = result.preserved;
    expect(kept?.reason).toBe('external-text');
    expect(kept?.entries).toEqual(['uses vim\nremember: deploys only on Fridays']);
    expect(await readFile(kept?.backup ?? '', 'utf8')).toContain('remember: deploys only on Fridays');
    expect(result.message).toContain('kept in');
    // Entries Vigil wrote itself are replaced without a backup.
    const again = await memory.mutate(temp.dir, 'memory', {
      action: 'replace',
      oldText: 'neovim',
      content: 'uses helix',
    });
    expect(again.preserved).toEqual([]);
  });
});

describe('refusing what cannot be read', () => {
  it('refuses a file that is not valid UTF-8 instead of treating it as empty', async () => {
    const bytes = Buffer.concat([Buffer.from('likes tea\n§\ncaf'), Buffer.from([0xe9]), Buffer.from(' au lait')]);
    await writeFile(file, bytes);
    const view = await memory.read(temp.dir, 'memory');
    expect(view.drift.reasons.map((reason) => reason.kind)).toEqual(['not-utf8']);
    expect(view.entries).toEqual([]);
    const error = await rejection(memory.mutate(temp.dir, 'memory', { action: 'add', content: 'x' }));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('not valid UTF-8 (first bad byte at offset 16)');
    expect(await readFile(file)).toEqual(bytes);
    expect(await readFile((error.details as { drift_backup: string }).drift_backup)).toEqual(bytes);
  });

  it('refuses to write a file holding a NUL byte, or one over 1 MiB, naming the reason; it is never rewritten', async () => {
    const binary = Buffer.from('likes tea\n§\nuses\u0000pnpm\n');
    await writeFile(file, binary);
    const nul = await rejection(memory.mutate(temp.dir, 'memory', { action: 'add', content: 'x' }));
    expect(nul.code).toBe('conflict');
    expect(nul.message).toContain('NUL byte at offset 17');
    expect(await readFile(file)).toEqual(binary);

    const huge = Buffer.from(`likes tea\n§\n${'pasted log line\n'.repeat(70_000)}end\n`);
    await writeFile(file, huge);
    const basis = (await memory.read(temp.dir, 'memory')).sha256;
    for (const call of [
      () => memory.mutate(temp.dir, 'memory', { action: 'add', content: 'x' }),
      () => memory.mutate(temp.dir, 'memory', { action: 'remove', oldText: 'end' }),
      () => memory.adopt(temp.dir, 'memory', basis, ['one entry']),
    ]) {
      const error = await rejection(call());
      expect(error.code).toBe('conflict');
      expect(error.message).toMatch(/is \d[\d,]+ bytes, over the 1,048,576-byte cap/);
      expect((error.details as { remediation: string }).remediation).toContain('move it out of');
      // Nothing writes it, so no copy of it is made.
      expect((error.details as { drift_backup?: string }).drift_backup).toBeUndefined();
    }
    expect(await readFile(file)).toEqual(huge);
    expect(await backupsIn(temp.dir)).toHaveLength(1);
  });

  it('refuses a MEMORY.md that is a directory, writing nothing', async () => {
    await mkdir(file);
    const error = await rejection(memory.mutate(temp.dir, 'memory', { action: 'add', content: 'x' }));
    expect(error.code).toBe('wrong_kind');
    expect((await stat(file)).isDirectory()).toBe(true);
  });

  it('names the managed directories when asked about another one', async () => {
    const error = await rejection(memory.read(path.join(temp.dir, 'elsewhere'), 'memory'));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain(temp.dir);
  });
});

describe('results for agents and the UI', () => {
  it('says a duplicate add changed nothing, and changes nothing', async () => {
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'likes tea' });
    const before = await stat(file);
    const again = await memory.mutate(temp.dir, 'memory', { action: 'add', content: '  likes tea ' });
    expect(again).toMatchObject({
      outcome: 'unchanged',
      message: 'Entry already exists (no duplicate added).',
      checkpoint: { status: 'not-needed' },
    });
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
  });

  it('refuses over the limit with the usage and the current entries', async () => {
    const small = await memoryServiceFor(temp.dir, { limits: { memory: 120, user: 100 } });
    try {
      await small.mutate(temp.dir, 'memory', { action: 'add', content: 'a'.repeat(100) });
      const error = await rejection(small.mutate(temp.dir, 'memory', { action: 'add', content: 'b'.repeat(20) }));
      expect(error.code).toBe('limit_exceeded');
      expect(error.details).toMatchObject({ usage: { chars: 100, limit: 120 }, entries: ['a'.repeat(100)] });
    } finally {
      await small.dispose();
    }
  });

  it('applies a batch all or nothing', async () => {
    await writeFile(file, joinEntries(['one', 'two']));
    const error = await rejection(
      memory.mutate(temp.dir, 'memory', {
        action: 'batch',
        operations: [
          { action: 'add', content: 'three' },
          { action: 'remove', oldText: 'four' },
        ],
      }),
    );
    expect(error.details).toMatchObject({ operation: 1 });
    expect(error.message).toContain('"four"');
    expect(await readFile(file, 'utf8')).toBe('one\n§\ntwo');
    const result = await memory.mutate(temp.dir, 'memory', {
      action: 'batch',
      operations: [
        { action: 'add', content: 'three' },
        { action: 'remove', oldText: 'one' },
      ],
    });
    expect(result.message).toMatch(/^Batch of 2 applied: 1 added, 1 removed\. /);
    // "one" was written by hand, not by Vigil: removing it keeps a copy.
    expect(result.preserved.map((item) => [item.reason, item.entries])).toEqual([['external-text', ['one']]]);
    expect(await readFile(file, 'utf8')).toBe('two\n§\nthree\n');
  });
});

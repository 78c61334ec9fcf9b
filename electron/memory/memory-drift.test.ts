import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { badInputDrift, detectDrift } from './memory-drift';
import { entriesChars, joinEntries, parseEntries, serializeEntries, splitEntries, usageOf } from './memory-format';
import { hermesDrifts, hermesEntries } from './test-support/hermes-drift-rule';

const hermesTool = path.join(repoRoot, 'electron/hermes/test-support/hermes_memory_tool.py');

/** A small seeded generator (mulberry32), so a failing corpus can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Memory files people and programs really produce, plus every whitespace Python strips, in random shapes. */
function corpus(seed: number, count: number): string[] {
  const random = seeded(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const spaces = ['', ' ', '\t', '\n', '\r\n', '\u3000', '\u00a0', '\u2028', '\u001c', '\u0085', '\ufeff', '\v'];
  const words = ['likes tea', 'uses pnpm', '- note', '# Heading', 'café', '👍 emoji', 'a § inside', 'x'.repeat(40)];
  const delimiters = ['\n§\n', '\r\n§\r\n', '\n§ \n', '\n §\n', '\n\n§\n', '\n§\n\n', '\r§\r', '\n§\n§\n', '§'];
  const files: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const parts: string[] = [pick(spaces)];
    const entries = 1 + Math.floor(random() * 5);
    for (let entry = 0; entry < entries; entry += 1) {
      if (entry > 0) parts.push(random() < 0.7 ? '\n§\n' : pick(delimiters));
      parts.push(
        pick(spaces),
        random() < 0.05 ? 'y'.repeat(120) : pick(words),
        random() < 0.3 ? `\n${pick(words)}` : '',
        pick(spaces),
      );
    }
    parts.push(pick(['', '\n', '\r\n', '\n\n', ' \n', '- appended\n']));
    files.push(parts.join(''));
  }
  return files;
}

describe('the memory file format', () => {
  it('joins entries with "\\n§\\n" and writes one final newline, and reads them back', () => {
    expect(joinEntries(['one', 'two\nlines', 'three'])).toBe('one\n§\ntwo\nlines\n§\nthree');
    const text = serializeEntries(['one', 'two\nlines', 'three']);
    expect(text).toBe('one\n§\ntwo\nlines\n§\nthree\n');
    expect(parseEntries(text)).toEqual(['one', 'two\nlines', 'three']);
    expect(serializeEntries([])).toBe('');
    expect(parseEntries('')).toEqual([]);
    expect(parseEntries(' \n ')).toEqual([]);
  });

  it('reads Windows line endings as Python does (universal newlines)', () => {
    expect(parseEntries('first fact\r\n§\r\nsecond fact\r\n')).toEqual(['first fact', 'second fact']);
    expect(parseEntries('one\r§\rtwo')).toEqual(['one', 'two']);
  });

  it('collapses exact duplicates on load, keeping the first', () => {
    expect(parseEntries('a\n§\nb\n§\na')).toEqual(['a', 'b']);
    expect(splitEntries('a\n§\nb\n§\na')).toEqual(['a', 'b', 'a']);
  });

  it('counts the delimiters and code points toward the limit, not the final newline', () => {
    expect(entriesChars(['ab', 'cd'])).toBe(7);
    expect(entriesChars(['👍', '👍👍'])).toBe(6);
    expect(usageOf(['x'.repeat(1100)], 2200)).toEqual({ chars: 1100, limit: 2200, percent: 50 });
    expect(usageOf(['x'.repeat(3000)], 2200).percent).toBe(100);
  });
});

describe("the drift check is Hermes Agent's rule", () => {
  it('never calls whitespace at the ends of the file drift: echo appends, editor saves, CRLF', () => {
    const written = serializeEntries(['likes tea', 'uses pnpm']);
    const cases = [
      written,
      `${written}- note\n`, // echo "- note" >> MEMORY.md after a Vigil write
      'likes tea\n§\nuses pnpm- note\n', // the same echo after a file with no final newline: glued, but nothing is lost
      'likes tea\n§\nuses pnpm\n\n', // an editor that adds a blank line
      '\n\nlikes tea\n§\nuses pnpm', // leading blank lines
      'likes tea\r\n§\r\nuses pnpm\r\n', // saved on Windows
      '\u3000likes tea\n§\nuses pnpm\u2028', // Unicode whitespace Python strips
      'a\n§\nb\n§\na', // duplicates collapse; nothing is lost
      '\n',
      '',
    ];
    for (const text of cases) {
      expect(detectDrift(text, 2200).isDrifted, JSON.stringify(text)).toBe(false);
      expect(hermesDrifts(text, 2200), JSON.stringify(text)).toBe(false);
    }
  });

  it('flags what Hermes flags: blank entries, whitespace around a § line, an entry over the whole limit', () => {
    for (const text of ['one \n§\ntwo', 'one\n§\n\n§\ntwo', 'one\n§\n two', 'one\n\n§\ntwo', 'one\n§\n']) {
      expect(hermesDrifts(text, 2200), JSON.stringify(text)).toBe(true);
      expect(
        detectDrift(text, 2200).reasons.map((reason) => reason.kind),
        JSON.stringify(text),
      ).toEqual(['not-round-trip']);
    }
    expect(detectDrift('x'.repeat(2200), 2200).isDrifted).toBe(false);
    const report = detectDrift(`${'x'.repeat(2201)}\n`, 2200);
    expect(report.reasons.map((reason) => reason.kind)).toEqual(['entry-over-limit']);
    expect(report.reasons[0]?.message).toContain('2,201 characters');
    // 1,100 emoji are 2,200 UTF-16 units but 1,100 characters: within a 1,375 limit.
    expect(detectDrift('👍'.repeat(1100), 1375).isDrifted).toBe(false);
    expect(detectDrift('👍'.repeat(1376), 1375).isDrifted).toBe(true);
  });

  it('agrees with the rule, implemented independently, on 3,000 generated files (seed 1515)', () => {
    const files = corpus(1515, 3000);
    const disagreements = files.filter((text) => detectDrift(text, 60).isDrifted !== hermesDrifts(text, 60));
    expect(disagreements).toEqual([]);
    // The corpus exercises both sides of the rule.
    const drifted = files.filter((text) => hermesDrifts(text, 60)).length;
    expect(drifted).toBeGreaterThan(300);
    expect(files.length - drifted).toBeGreaterThan(300);
    // Vigil's entries are the ones Hermes loads.
    expect(files.filter((text) => JSON.stringify(parseEntries(text)) !== JSON.stringify(hermesEntries(text)))).toEqual(
      [],
    );
  });

  describe('and with Python running it', () => {
    let temp: { dir: string; remove: () => Promise<void> };
    beforeEach(async () => {
      temp = await makeTempDir('vigil-drift-');
    });
    afterEach(async () => {
      await temp.remove();
    });

    it('on 400 generated files, written as bytes and read by python3 in text mode', () => {
      const files = corpus(2026, 400);
      const paths = files.map((text, index) => {
        const file = path.join(temp.dir, `MEMORY-${index}.md`);
        writeFileSync(file, text);
        return file;
      });
      const verdicts = execFileSync('python3', [hermesTool, 'drift', '60', ...paths], { encoding: 'utf8' })
        .trim()
        .split('\n');
      expect(verdicts).toHaveLength(files.length);
      const disagreements = files.filter(
        (text, index) => detectDrift(text, 60).isDrifted !== (verdicts[index] === '1'),
      );
      expect(disagreements).toEqual([]);
    });
  });
});

describe('bytes Vigil never rewrites', () => {
  it('names a file that is not UTF-8, holds a NUL, or is over 1 MiB', () => {
    expect(badInputDrift(Buffer.from('likes tea'), -1)).toBeUndefined();
    expect(badInputDrift(Buffer.from([0x61, 0xe9]), 1)?.reasons.map((reason) => reason.kind)).toEqual(['not-utf8']);
    expect(badInputDrift(Buffer.from('a\u0000b'), -1)?.reasons[0]?.message).toContain('NUL byte at offset 1');
    expect(badInputDrift(Buffer.alloc(1024 * 1024 + 1, 0x61), -1)?.reasons.map((reason) => reason.kind)).toEqual([
      'too-large',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { mergeLines, selectionOfOldRange, type LineRange, type LineSelection } from './line-range-merge';
import { lineTextProblem, toLineText, type LineText } from './line-text';

function text(content: string | Uint8Array): LineText {
  const parsed = toLineText(typeof content === 'string' ? new TextEncoder().encode(content) : content, 'f.txt');
  if (parsed.kind !== 'text') throw new Error(parsed.message);
  return parsed;
}

/** Restores lines `range` of `old` into `current`, as `vigil checkpoints restore … --lines A-B` does. */
function restoreRange(old: string, current: string, range: LineRange): string {
  const [from, to] = [text(old), text(current)];
  return Buffer.from(mergeLines(from, to, selectionOfOldRange(from, to, range)).content).toString('utf8');
}

function restoreRows(old: string, current: string, selection: LineSelection): string {
  return Buffer.from(mergeLines(text(old), text(current), selection).content).toString('utf8');
}

describe('line-range merge', () => {
  it('puts back only the lines of the range; every other line stays as it is now', () => {
    expect(restoreRange('a\nb\nc\nd\ne\n', 'a\nB\nc\nD\ne\n', { from: 2, to: 2 })).toBe('a\nb\nc\nD\ne\n');
    expect(restoreRange('a\nb\nc\nd\ne\n', 'a\nB\nc\nD\ne\n', { from: 2, to: 4 })).toBe('a\nb\nc\nd\ne\n');
    const [old, current] = [text('a\nb\nc\nd\ne\n'), text('a\nB\nc\nD\ne\n')];
    const merged = mergeLines(old, current, selectionOfOldRange(old, current, { from: 1, to: 3 }));
    expect(merged).toMatchObject({ putBack: 1, takenOut: 1 });
  });

  it('brings back deleted lines in place and takes out lines inserted between lines of the range', () => {
    expect(restoreRange('a\nb\nc\n', 'a\nc\n', { from: 2, to: 2 })).toBe('a\nb\nc\n');
    // N was inserted between lines 2 and 3: only a range holding both takes it out.
    expect(restoreRange('a\nb\nc\n', 'a\nb\nN\nc\n', { from: 2, to: 3 })).toBe('a\nb\nc\n');
    expect(restoreRange('a\nb\nc\n', 'a\nb\nN\nc\n', { from: 1, to: 2 })).toBe('a\nb\nN\nc\n');
    expect(restoreRange('a\nb\nc\n', 'a\nb\nN\nc\n', { from: 3, to: 3 })).toBe('a\nb\nN\nc\n');
  });

  it('within a change that the range cuts through, pairs lines in order and keeps the rest', () => {
    const old = 'P\nx1\nx2\nx3\nQ\n';
    const current = 'P\ny1\ny2\ny3\ny4\nQ\n';
    expect(restoreRange(old, current, { from: 3, to: 3 })).toBe('P\ny1\nx2\ny3\ny4\nQ\n');
    // The change's last line is in the range: the extra current line after it goes too.
    expect(restoreRange(old, current, { from: 3, to: 4 })).toBe('P\ny1\nx2\nx3\nQ\n');
    expect(restoreRange(old, current, { from: 2, to: 4 })).toBe(old);
  });

  it('restores exactly the diff rows chosen in the UI: removed rows come back, added rows go', () => {
    const old = 'a\nb\nc\n';
    const current = 'a\nB\nc\nd\n';
    expect(restoreRows(old, current, { old: [{ from: 2, to: 2 }], new: [] })).toBe('a\nb\nB\nc\nd\n');
    expect(restoreRows(old, current, { old: [], new: [{ from: 4, to: 4 }] })).toBe('a\nB\nc\n');
    // Rows that are the same on both sides are left alone whatever is selected.
    expect(restoreRows(old, current, { old: [{ from: 1, to: 1 }], new: [{ from: 3, to: 3 }] })).toBe(current);
  });

  it('keeps CRLF line endings, and gives lines put back the line ending the file uses now', () => {
    expect(restoreRange('a\r\nb\r\nc\r\n', 'a\r\nX\r\nc\r\nY\r\n', { from: 2, to: 2 })).toBe('a\r\nb\r\nc\r\nY\r\n');
    // The checkpoint had LF; the file is CRLF now: the line put back is CRLF too.
    expect(restoreRange('a\nb\nc\n', 'a\r\nX\r\nc\r\n', { from: 2, to: 2 })).toBe('a\r\nb\r\nc\r\n');
    // Lines that differ only in their line ending are the same line: nothing to restore there.
    const [old, current] = [text('a\nb\n'), text('a\r\nb\r\n')];
    expect(mergeLines(old, current, selectionOfOldRange(old, current, { from: 1, to: 2 }))).toMatchObject({
      putBack: 0,
      takenOut: 0,
    });
  });

  it('keeps a missing final newline missing, also when the last line is one put back', () => {
    expect(restoreRange('a\nb\nc\n', 'a\nX\nc', { from: 2, to: 2 })).toBe('a\nb\nc');
    expect(restoreRange('a\nb\nc\n', 'a\nb', { from: 3, to: 3 })).toBe('a\nb\nc');
    // A file that ends with a newline keeps it when its old last line (without one) comes back.
    expect(restoreRange('a\nb', 'a\nX\n', { from: 2, to: 2 })).toBe('a\nb\n');
  });

  it('keeps the byte-order mark as the file has it now, and does not count it in line 1', () => {
    expect(restoreRange('\uFEFFa\nb\n', '\uFEFFa\nX\n', { from: 2, to: 2 })).toBe('\uFEFFa\nb\n');
    expect(restoreRange('a\nb\n', '\uFEFFA\nX\n', { from: 1, to: 2 })).toBe('\uFEFFa\nb\n');
    expect(restoreRange('\uFEFFa\nb\n', 'A\nb\n', { from: 1, to: 1 })).toBe('a\nb\n');
  });

  it('leaves every byte of the lines it does not restore as it was', () => {
    const current = 'tab\there\r\nlone\rcarriage\r\nünïcödé ✓\r\nX\r\n';
    const merged = restoreRange('tab\there\nlone\rcarriage\nünïcödé ✓\nx\n', current, { from: 4, to: 4 });
    expect(merged).toBe('tab\there\r\nlone\rcarriage\r\nünïcödé ✓\r\nx\r\n');
  });

  it('maps a range to the rows it covers, merged into ranges of each side', () => {
    const [old, current] = [text('a\nb\nc\nd\ne\n'), text('a\nB\nc\nD\nE\nf\n')];
    expect(selectionOfOldRange(old, current, { from: 2, to: 5 })).toEqual({
      old: [
        { from: 2, to: 2 },
        { from: 4, to: 5 },
      ],
      new: [
        { from: 2, to: 2 },
        { from: 4, to: 6 },
      ],
    });
  });

  it('refuses what is not UTF-8 text: binary, UTF-16 and other encodings', () => {
    expect(lineTextProblem(new Uint8Array([0x61, 0x00, 0x62]))).toBe('binary');
    expect(lineTextProblem(new Uint8Array([0xff, 0xfe, 0x61, 0x00]))).toBe('utf16');
    expect(lineTextProblem(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]))).toBe('not-utf8');
    expect(lineTextProblem(new TextEncoder().encode('\uFEFFcafé\n'))).toBeUndefined();
    const refused = toLineText(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]), 'notes.txt (now)');
    expect(refused).toMatchObject({ kind: 'refused', problem: 'not-utf8' });
    expect(refused.kind === 'refused' && refused.message).toBe(
      'notes.txt (now) is not valid UTF-8 (another encoding?), so its lines could not be written back byte for byte. Restore the whole file instead.',
    );
  });

  it('treats two versions too different to match line by line as replaced whole, as the diff view does', () => {
    const old = Array.from({ length: 1_500 }, (_, index) => `old ${index}`).join('\n') + '\n';
    const current = Array.from({ length: 1_500 }, (_, index) => `new ${index}`).join('\n') + '\n';
    const merged = restoreRows(old, current, { old: [{ from: 1, to: 1 }], new: [{ from: 1, to: 1 }] });
    expect(merged.split('\n').slice(0, 3)).toEqual(['old 0', 'new 1', 'new 2']);
  });
});

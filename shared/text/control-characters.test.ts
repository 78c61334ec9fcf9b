import { describe, expect, it } from 'vitest';
import { describeControlCharacter, escapeControls, findC0Control } from './control-characters';

describe('control characters', () => {
  it('escapes every C0 control, DEL, C1 and bidi control, and leaves ordinary text (emoji, accents, CJK) alone', () => {
    expect(escapeControls('x\u001b[31mred\u0007')).toBe('x\\u001b[31mred\\u0007');
    expect(escapeControls('a\nb\tc\rd\u0000e\u007f\u009b')).toBe('a\\nb\\tc\\rd\\u0000e\\u007f\\u009b');
    expect(escapeControls('invoice\u202Egnp.exe \u2066x\u2069')).toBe('invoice\\u202egnp.exe \\u2066x\\u2069');
    const plain = 'héllo 日本 🎉 C:\\dir "quoted" $HOME';
    expect(escapeControls(plain)).toBe(plain);
  });

  it('leaves a JSON document valid, with the same values, when it escapes the controls JSON.stringify lets through', () => {
    const value = { name: 'a\u009bb\u007f\u202e', text: 'x\u001by\nz' };
    const json = JSON.stringify(value, null, 2);
    expect(json).toContain('\u009b');
    const escaped = escapeControls(json, { keepLineBreaks: true });
    expect(escaped).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/u);
    expect(JSON.parse(escaped)).toEqual(value);
  });

  it('keeps newlines and tabs of a multi-line text when asked, and still escapes the rest', () => {
    expect(escapeControls('line 1\n\tline 2\u001b[2J', { keepLineBreaks: true })).toBe('line 1\n\tline 2\\u001b[2J');
    expect(escapeControls('one\r\ntwo', { keepLineBreaks: true })).toBe('one\\r\ntwo');
  });

  it('finds the first C0 control other than tab and newline, by its 1-based character position, and names it', () => {
    expect(findC0Control('x\u001b[31mred')).toEqual({ codePoint: 0x1b, position: 2 });
    expect(findC0Control('🎉\u0007')).toEqual({ codePoint: 7, position: 2 });
    expect(findC0Control('tab\tand\nnewline are fine')).toBeUndefined();
    expect(findC0Control('a\u007fb')).toBeUndefined();
    expect(describeControlCharacter(0x1b)).toBe('U+001B ESC');
    expect(describeControlCharacter(0)).toBe('U+0000 NUL');
    expect(describeControlCharacter(0x7f)).toBe('U+007F DEL');
    expect(describeControlCharacter(0x9b)).toBe('U+009B');
  });
});

import { describe, expect, it } from 'vitest';
import { countChars, previewText, pythonStrip } from './memory-text';

describe('memory text, measured as Hermes (Python) measures it', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(countChars('abc')).toBe(3);
    expect('👍'.length).toBe(2);
    expect(countChars('👍')).toBe(1);
    // A family emoji is 5 code points (3 people joined by 2 zero-width joiners), as Python's len() says.
    expect(countChars('👨‍👩‍👧')).toBe(5);
    expect(countChars('é')).toBe(1);
    expect(countChars('e\u0301')).toBe(2);
    expect(countChars('§')).toBe(1);
    expect(countChars('\n§\n')).toBe(3);
  });

  it('strips the whitespace Python strips, not what JavaScript trims', () => {
    expect(pythonStrip('  a b \n\t')).toBe('a b');
    // U+FEFF (BOM) is not whitespace for Python; JavaScript's trim() would remove it.
    expect(pythonStrip('\ufeffa')).toBe('\ufeffa');
    expect('\ufeffa'.trim()).toBe('a');
    // U+001C–U+001F are whitespace for Python; JavaScript's trim() keeps them.
    expect(pythonStrip('\u001ca\u001f')).toBe('a');
    expect('\u001ca'.trim()).toBe('\u001ca');
    expect(pythonStrip('\u3000a\u2029')).toBe('a');
    expect(pythonStrip('   ')).toBe('');
  });

  it('previews 80 characters without cutting an emoji in half', () => {
    const text = `${'a'.repeat(79)}👍👍👍`;
    const preview = previewText(text);
    expect(preview).toBe(`${'a'.repeat(79)}👍...`);
    expect(previewText('short')).toBe('short');
    expect(previewText('👍'.repeat(80))).toBe('👍'.repeat(80));
    expect(previewText('👍'.repeat(81))).toBe(`${'👍'.repeat(80)}...`);
  });
});

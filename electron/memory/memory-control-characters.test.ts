import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { applyOperations, type OperationContext } from './memory-operations';

const context: OperationContext = { fileName: 'MEMORY.md', limit: 2200, fieldOf: (index, property) => `operations.${index}.${property}` };

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('memory refuses control characters that would reach a terminal', () => {
  it('refuses ESC, naming the character, its position in what was sent and the field; nothing is applied', () => {
    const error = refusal(() => applyOperations(['kept'], [{ action: 'add', content: 'x\u001b[31mred' }], context));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('U+001B ESC at position 2 (field "operations.0.content")');
    expect(error.details).toMatchObject({ field: 'operations.0.content', codePoint: 0x1b, position: 2 });
    // Leading whitespace that strip() removes still counts: the position is in the text as sent.
    expect(refusal(() => applyOperations([], [{ action: 'add', content: '  🎉\u0007' }], context)).message).toContain('U+0007 BEL at position 4');
  });

  it('refuses NUL and a CR inside an entry (saying how to write line breaks), in replace too', () => {
    expect(refusal(() => applyOperations([], [{ action: 'add', content: 'a\u0000b' }], context)).message).toContain('U+0000 NUL at position 2');
    const carriage = refusal(() => applyOperations(['old entry'], [{ action: 'replace', oldText: 'old', content: 'one\r\ntwo' }], context));
    expect(carriage.message).toContain('U+000D CR at position 4 (field "operations.0.content")');
    expect(carriage.message).toContain('newline alone');
  });

  it('accepts tabs and newlines inside, and what strip() removes at the ends (a trailing CR LF)', () => {
    const result = applyOperations([], [{ action: 'add', content: 'name:\tvalue\nsecond line\r\n' }], context);
    expect(result.entries).toEqual(['name:\tvalue\nsecond line']);
  });
});

import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { parseCheckpointRef, pickCheckpoint } from './checkpoint-ref';

const ids = [
  '39817222aa00bb11cc22dd33ee44ff5566778899',
  'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  '0000777f1111222233334444555566667777aaaa',
];
const pick = (text: string): number => pickCheckpoint(parseCheckpointRef(text), ids, '/work/project');

describe('checkpoint references', () => {
  it('reads a short number as the position in the list (1 = newest)', () => {
    expect(pick('1')).toBe(0);
    expect(pick('3')).toBe(2);
  });

  it('reads digits past the end of the list as the start of an id, as the list shows ids', () => {
    expect(pick('39817222')).toBe(0);
    expect(pick('0000777f')).toBe(2);
    expect(pick('0000')).toBe(2);
  });

  it('still says which numbers exist when digits are neither a position nor an id', () => {
    expect(() => pick('4')).toThrow(/use 1–3/u);
    expect(() => pick('12345678')).toThrow(AppError);
    expect(() => pick('12345678')).toThrow(/No checkpoint of \/work\/project has an id starting with 12345678/u);
  });

  it('reads hex as an id prefix and refuses what is neither', () => {
    expect(pick('a1b2')).toBe(1);
    expect(() => parseCheckpointRef('-1')).toThrow(/is not a checkpoint/u);
    expect(() => parseCheckpointRef('xyz')).toThrow(/not a checkpoint number or id/u);
  });
});

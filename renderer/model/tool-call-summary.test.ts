import { describe, expect, it } from 'vitest';
import { clip, summarizeArguments } from './tool-call-summary';

describe('tool call summaries', () => {
  it('names the path, the command or the memory action', () => {
    expect(summarizeArguments('write_file', { path: 'src/a.ts', content: 'x' })).toBe('src/a.ts');
    expect(summarizeArguments('terminal', { command: 'rm -rf build' })).toBe('rm -rf build');
    expect(summarizeArguments('memory', { action: 'add', target: 'memory', content: 'The user\nprefers tabs' })).toBe('add memory “The user prefers tabs”');
  });

  it('falls back to compact JSON, clipped', () => {
    expect(summarizeArguments('other', { a: 1 })).toBe('{"a":1}');
    expect(summarizeArguments('other', null)).toBe('null');
    expect(clip('x'.repeat(10), 5)).toBe('xxxx…');
  });
});

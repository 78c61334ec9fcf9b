import { describe, expect, it } from 'vitest';
import { formatToolValue } from './format-tool-value';

describe('formatToolValue', () => {
  it('shows scalar fields as JSON and multi-line text as blocks, so file content reads as text', () => {
    const text = formatToolValue({ path: '/w/a.txt', offset: 1, content: '1\tfirst\n2\tsecond', truncated: false });
    expect(text.split('\n')[0]).toBe('{"path":"/w/a.txt","offset":1,"truncated":false}');
    expect(text).toContain('--- content ---\n1\tfirst\n2\tsecond');
  });

  it('passes strings through and renders other values as JSON', () => {
    expect(formatToolValue('plain')).toBe('plain');
    expect(formatToolValue([1, 2])).toBe('[1,2]');
    expect(formatToolValue(undefined)).toBe('done');
  });
});

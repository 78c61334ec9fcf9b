import { describe, expect, it } from 'vitest';
import { describeCall } from './session-state';

describe("a call's one line", () => {
  it('shows a path exactly, a newline or an escape in it escaped, never folded into a space', () => {
    expect(describeCall('write_file', { path: 'two\nlines\u001b[31m.txt', content: 'x' })).toBe(
      'two\\nlines\\u001b[31m.txt',
    );
    expect(describeCall('write_file', { path: 'two lines.txt' })).toBe('two lines.txt');
  });

  it('keeps every line of a command, escaped, without the blank space around it', () => {
    expect(describeCall('terminal', { command: '  echo safe\nrm -rf legacy\n' })).toBe('echo safe\\nrm -rf legacy');
    expect(describeCall('memory', { action: 'add', target: 'memory' })).toBe('add memory');
  });

  it('says it was cut when it was, and falls back to the tool name', () => {
    const long = describeCall('terminal', { command: `echo ${'x'.repeat(400)}` });
    expect(long).toHaveLength(160);
    expect(long.endsWith('…')).toBe(true);
    expect(describeCall('terminal', { command: '   ' })).toBe('terminal');
    expect(describeCall('read_file', undefined)).toBe('read_file');
  });
});

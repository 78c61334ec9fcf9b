import { describe, expect, it } from 'vitest';
import { clip, summarizeArguments } from './tool-call-summary';

describe('tool call summaries', () => {
  it('names the path, the command or the memory action', () => {
    expect(summarizeArguments('write_file', { path: 'src/a.ts', content: 'x' })).toBe('src/a.ts');
    expect(summarizeArguments('terminal', { command: 'rm -rf build' })).toBe('rm -rf build');
    // The agents' own tools, as their hooks report them.
    expect(summarizeArguments('Bash', { command: 'rm -rf legacy', description: 'Remove the legacy folder' })).toBe(
      'rm -rf legacy',
    );
    expect(summarizeArguments('run_shell_command', { command: 'make', dir_path: 'sub' })).toBe('make');
    expect(summarizeArguments('Write', { file_path: '/w/hello.txt', content: 'hi' })).toBe('/w/hello.txt');
    expect(summarizeArguments('memory', { action: 'add', target: 'memory', content: 'The user\nprefers tabs' })).toBe(
      'add memory “The user prefers tabs”',
    );
  });

  it('shows what a session kept of a long text (its preview) or a secret (nothing), and masks secret-looking values', () => {
    const long = {
      kind: 'elided-text',
      reason: 'long',
      chars: 5000,
      bytes: 5000,
      sha256: 'ab',
      preview: 'The user prefers',
    };
    expect(summarizeArguments('memory', { action: 'add', target: 'memory', content: long })).toBe(
      'add memory “The user prefers…”',
    );
    expect(
      summarizeArguments('memory', {
        action: 'add',
        target: 'user',
        content: { kind: 'elided-text', reason: 'secret', chars: 9, bytes: 9 },
      }),
    ).toBe('add user “(secret: not kept)”');
    expect(
      summarizeArguments('terminal', { command: 'curl -H "Authorization: Bearer abcdefghijklmnop1234" https://x' }),
    ).toBe('curl -H "Authorization: Bearer [masked]" https://x');
    expect(
      summarizeArguments('terminal', {
        command: 'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      }),
    ).toBe('export AWS_SECRET_ACCESS_KEY=[masked]');
  });

  it('falls back to compact JSON, clipped', () => {
    expect(summarizeArguments('other', { a: 1 })).toBe('{"a":1}');
    expect(summarizeArguments('other', null)).toBe('null');
    expect(clip('x'.repeat(10), 5)).toBe('xxxx…');
  });
});

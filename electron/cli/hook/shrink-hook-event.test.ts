import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { HookEvent } from '../../../shared/hooks/hook-event';
import { longStringChars, shrinkHookEvent } from './shrink-hook-event';

describe('shrinkHookEvent', () => {
  it('sends a long text of a tool input as its size and SHA-256, and leaves short ones as they are', async () => {
    const long = `é${'x'.repeat(longStringChars)}`;
    const event = {
      agent: 'claude-code',
      kind: 'pre-tool',
      sessionId: 's',
      tool: { kind: 'file', name: 'Write', path: 'a.txt', input: { file_path: 'a.txt', content: long } },
    } as unknown as HookEvent;
    const shrunk = await shrinkHookEvent(event);
    expect(shrunk.tool?.input).toEqual({
      file_path: 'a.txt',
      content: {
        kind: 'elided-text',
        reason: 'long',
        chars: long.length,
        bytes: Buffer.byteLength(long, 'utf8'),
        sha256: createHash('sha256').update(long).digest('hex'),
      },
    });
    const short = { ...event, tool: { ...event.tool, input: { content: 'x' } } } as HookEvent;
    expect(await shrinkHookEvent(short)).toBe(short);
  });
});

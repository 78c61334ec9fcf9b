import { describe, expect, it } from 'vitest';
import { createRendererRecovery } from './renderer-recovery';

describe('createRendererRecovery', () => {
  it('reloads after a crash, up to the limit within the window, then gives up', () => {
    let now = 0;
    const recovery = createRendererRecovery({ maxReloads: 3, windowMs: 60_000, now: () => now });
    expect(recovery.decide('crashed')).toBe('reload');
    now = 1_000;
    expect(recovery.decide('oom')).toBe('reload');
    now = 2_000;
    expect(recovery.decide('killed')).toBe('reload');
    now = 3_000;
    expect(recovery.decide('crashed')).toBe('give-up');
    now = 60_000;
    expect(recovery.decide('crashed')).toBe('reload');
  });

  it('ignores a renderer that exited cleanly (the window closing)', () => {
    const recovery = createRendererRecovery({ maxReloads: 1, windowMs: 60_000, now: () => 0 });
    expect(recovery.decide('clean-exit')).toBe('none');
    expect(recovery.decide('clean-exit')).toBe('none');
    expect(recovery.decide('abnormal-exit')).toBe('reload');
  });
});

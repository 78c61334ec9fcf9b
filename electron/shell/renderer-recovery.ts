import type { RenderProcessGoneDetails } from 'electron';

/** Why a renderer process ended, as Electron reports it. */
export type RendererGoneReason = RenderProcessGoneDetails['reason'];

/** What to do about a renderer that is gone. */
export type RecoveryAction = 'none' | 'reload' | 'give-up';

/** Decides, crash by crash, whether to reload the window. */
export interface RendererRecovery {
  decide(reason: RendererGoneReason): RecoveryAction;
}

/** Limits of automatic reloads. */
export interface RecoveryLimits {
  /** Reloads allowed within `windowMs`; past that the window stops reloading and asks. */
  readonly maxReloads: number;
  readonly windowMs: number;
  readonly now?: () => number;
}

/**
 * The policy after a renderer crash: the core lives in the main process and keeps running, so the
 * window just reloads and reconnects; a renderer that keeps dying (say, a page that crashes on
 * load) stops being reloaded after `maxReloads` in `windowMs`, so it cannot spin forever.
 */
export function createRendererRecovery(limits: RecoveryLimits): RendererRecovery {
  const now = limits.now ?? Date.now;
  const reloads: number[] = [];
  return {
    decide(reason) {
      if (reason === 'clean-exit') return 'none';
      const at = now();
      while (reloads.length > 0 && at - (reloads[0] ?? at) >= limits.windowMs) reloads.shift();
      if (reloads.length >= limits.maxReloads) return 'give-up';
      reloads.push(at);
      return 'reload';
    },
  };
}

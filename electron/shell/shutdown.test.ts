import { describe, expect, it } from 'vitest';
import type { Logger } from '../logging/logger';
import { shutDownWithin } from './shutdown';

function recordingLogger(): Logger & { readonly lines: string[]; flushes: number } {
  const lines: string[] = [];
  const logger = {
    lines,
    flushes: 0,
    error: (message: string) => void lines.push(`error ${message}`),
    warn: (message: string) => void lines.push(`warn ${message}`),
    info: (message: string) => void lines.push(`info ${message}`),
    debug: () => undefined,
    flush: () => {
      logger.flushes += 1;
      return Promise.resolve();
    },
  };
  return logger;
}

describe('shutDownWithin', () => {
  it('waits for a shutdown that finishes, and flushes the log after it', async () => {
    const logger = recordingLogger();
    const order: string[] = [];
    const outcome = await shutDownWithin(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push('disposed');
      },
      5_000,
      logger,
    );
    expect(outcome).toBe('clean');
    expect(order).toEqual(['disposed']);
    expect(logger.flushes).toBe(1);
  });

  it('quits anyway when the shutdown hangs, and says so in the log', async () => {
    const logger = recordingLogger();
    const outcome = await shutDownWithin(() => new Promise<void>(() => undefined), 50, logger);
    expect(outcome).toBe('timed-out');
    expect(logger.lines).toEqual(['error shutdown did not finish in time; quitting anyway']);
  });

  it('logs a failed shutdown instead of throwing', async () => {
    const logger = recordingLogger();
    const outcome = await shutDownWithin(() => Promise.reject(new Error('lock release failed')), 5_000, logger);
    expect(outcome).toBe('failed');
    expect(logger.lines).toEqual(['error shutdown failed; quitting anyway']);
  });
});

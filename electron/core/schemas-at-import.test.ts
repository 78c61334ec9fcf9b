import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * Loading the core's face, the contract and the agent tools builds no zod schema: each is built on
 * first use (shared/lazy-schema.ts). Building the ~2,000 of them at import was about half of a
 * one-shot command's module loading (docs/benchmarks/cli-notes.md, "Module loading").
 * zod calls its config's `postProcessor` on every schema it constructs; the last case proves the
 * count sees constructions, so a zod that dropped the hook fails here instead of passing quietly.
 */
let constructed = 0;

afterEach(() => {
  z.config({ postProcessor: undefined });
});

function countConstructions(): void {
  constructed = 0;
  z.config({
    postProcessor: () => {
      constructed += 1;
    },
  });
}

describe('zod schemas at import', () => {
  it('are not built when the core, the contract and the tools load', async () => {
    countConstructions();
    const contract = await import('../../shared/contract');
    const tools = await import('../../shared/tools/tool-registry');
    const core = await import('.');
    await import('../sandbox');
    await import('../policy');
    expect(contract.callNames.length).toBeGreaterThan(10);
    expect(tools.toolDefinitions.length).toBe(5);
    expect(typeof core.createCore).toBe('function');
    expect(constructed).toBe(0);
  });

  it('are built on first use, and the count sees them', async () => {
    const { callSpecs } = await import('../../shared/contract');
    countConstructions();
    expect(callSpecs['app:info'].request.safeParse({}).success).toBe(true);
    expect(constructed).toBeGreaterThan(0);
  });
});

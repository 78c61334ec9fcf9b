import { describe, expect, it } from 'vitest';
import {
  defaultSandboxLimits,
  defaultSandboxSettings,
  networkPolicySchema,
  sandboxPolicySchema,
} from './sandbox-settings';

/** The defaults written as plain values (so loading the module builds no schema) are what the schemas give for nothing. */
describe('sandbox settings defaults', () => {
  it('equal what the schemas parse from an empty section', () => {
    const sandbox = sandboxPolicySchema.parse({});
    expect(sandbox.limits).toEqual(defaultSandboxLimits);
    expect({ network: networkPolicySchema.parse({}), sandbox }).toEqual(defaultSandboxSettings);
  });
});

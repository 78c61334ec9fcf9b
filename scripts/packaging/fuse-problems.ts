import type { FuseName, FuseState } from './fuse-wire';

/** The fuses a build asks for, as electron-builder's `electronFuses` spells them. */
export type FuseSettings = Readonly<Partial<Record<FuseName, boolean>>>;

/** Differences between the fuses configured and the fuses found in a packaged binary. */
export function fuseProblems(
  configured: FuseSettings,
  found: Readonly<Partial<Record<FuseName, FuseState>>>,
): readonly string[] {
  const problems: string[] = [];
  for (const [name, enabled] of Object.entries(configured) as [FuseName, boolean][]) {
    const expected: FuseState = enabled ? 'on' : 'off';
    const actual = found[name];
    if (actual === undefined) problems.push(`fuse ${name} is configured but the binary's fuse wire has no such fuse`);
    else if (actual !== expected)
      problems.push(`fuse ${name} is ${actual} in the packaged binary, but the configuration sets it ${expected}`);
  }
  return problems;
}

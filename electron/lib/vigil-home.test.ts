import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveVigilHome } from './vigil-home';

describe('resolveVigilHome', () => {
  it('takes VIGIL_HOME when set, resolved against the current directory', () => {
    expect(resolveVigilHome({ VIGIL_HOME: 'data' }, '/elsewhere')).toBe(path.resolve('data'));
  });

  it('takes the given default, else ~/.vigil in the folder os.homedir() names (HOME on POSIX, without loading node:os)', () => {
    expect(resolveVigilHome({ VIGIL_HOME: '' }, '/app/data')).toBe('/app/data');
    expect(resolveVigilHome({})).toBe(path.join(os.homedir(), '.vigil'));
  });
});

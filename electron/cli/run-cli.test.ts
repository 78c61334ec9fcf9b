import { describe, expect, it } from 'vitest';
import { runVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';

describe('vigil CLI', () => {
  it('prints help and the version with exit code 0', async () => {
    const help = await runVigil(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: vigil <command>');
    expect(help.stdout).toContain('serve');
    const version = await runVigil(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('names an unknown command and an unknown flag, with exit code 2', async () => {
    const command = await runVigil(['frobnicate']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command "frobnicate"');
    const flag = await runVigil(['serve', '--frobnicate']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown option "--frobnicate"');
  });

  it('refuses a non-loopback bind without --allow-remote as a usage error', async () => {
    const home = await makeTempDir();
    try {
      const run = await runVigil(['serve', '--host', '0.0.0.0', '--port', '0'], { env: { VIGIL_HOME: home.dir } });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--allow-remote');
    } finally {
      await home.remove();
    }
  });

  it("shows a command's own help", async () => {
    const run = await runVigil(['serve', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: vigil serve');
    expect(run.stdout).toContain('--allow-remote');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { InProcessSpawner } from './command-execution';
import { startEngineAhead } from './engine-head-start';
import { defaultSandboxSettings } from './sandbox-settings';
import { engineBridges, until } from './test-support/engine-bridges';

/**
 * The sandbox engine a one-shot command starts ahead of its command stops with the command's
 * core whatever the order: a head start or a spawner let go of before its settings were read
 * starts nothing that would outlive the process's last user (the engine's proxies would keep
 * the process alive and its bridges running).
 */
const spawners: InProcessSpawner[] = [];
afterEach(async () => {
  for (const spawner of spawners.splice(0)) await spawner.dispose();
});

/** Starts the engine with a spawner of its own and lets go of it: the engine stops when nobody else holds it. */
async function startAndStopAnother(): Promise<void> {
  const other = new InProcessSpawner();
  spawners.push(other);
  other.warm(defaultSandboxSettings.network, undefined);
  await until(() => engineBridges().length > 0);
  await other.dispose();
}

describe.skipIf(process.platform !== 'linux')('the sandbox engine started ahead of a command', () => {
  it('is not started by a spawner that was disposed before its settings arrived', async () => {
    const late = new InProcessSpawner();
    spawners.push(late);
    await late.dispose();
    late.warm(defaultSandboxSettings.network, undefined);
    await startAndStopAnother();
    await until(() => engineBridges().length === 0);
  });

  it('stops with its disposer even when released before its settings were read', async () => {
    let settle: (value: typeof defaultSandboxSettings) => void = () => undefined;
    const settings = new Promise<typeof defaultSandboxSettings>((resolve) => {
      settle = resolve;
    });
    const release = startEngineAhead(() => settings);
    await release();
    settle(defaultSandboxSettings);
    await new Promise((resolve) => setImmediate(resolve));
    await startAndStopAnother();
    await until(() => engineBridges().length === 0);
  });

  it('starts the bridges at once and stops them on release', async () => {
    const release = startEngineAhead(() => Promise.resolve(defaultSandboxSettings));
    await until(() => engineBridges().length > 0);
    await release();
    expect(engineBridges()).toEqual([]);
  });
});

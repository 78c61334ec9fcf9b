import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolCallOutcome } from '../executor/executor-types';
import { createAttackWorld, plantedToken, type AttackWorld } from './test-support/attack-world';

/**
 * The escapes a hostile pass found (issue 17), run for real through the executor with a throwaway
 * HOME, a victim folder beside the workspace and a real VIGIL_HOME. The person answering every
 * question allows it, the worst case: the OS sandbox alone must hold. After each attack everything
 * outside the workspace is byte-identical, the checkpoints are intact, and the call was refused,
 * asked, or failed inside the sandbox.
 */
let world: AttackWorld;
beforeAll(async () => {
  world = await createAttackWorld();
});
afterAll(async () => {
  await world.close();
});

interface TerminalOutput {
  readonly exit_code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function output(outcome: ToolCallOutcome): TerminalOutput | undefined {
  return outcome.result.ok ? (outcome.result.value as TerminalOutput) : undefined;
}

/** Runs one attack and checks what must hold after it; `isHarmless`: it may also just succeed (it reaches nothing it should not). */
async function attack(command: string, isHarmless = false): Promise<ToolCallOutcome> {
  const before = world.outside();
  const checkpoints = world.checkpointIds();
  const outcome = await world.call('terminal', { command });
  expect(world.outside()).toEqual(before);
  world.fsck();
  const after = world.checkpointIds();
  for (const id of checkpoints) expect(after).toContain(id);
  const ran = output(outcome);
  const failedInside =
    ran !== undefined &&
    (ran.exit_code !== 0 ||
      /Read-only file system|Permission denied|Operation not permitted|No such file|Device or resource busy/u.test(
        ran.stderr,
      ));
  expect(
    isHarmless || outcome.decision === 'blocked' || world.wasAsked(outcome) || failedInside,
    `${command}: ${JSON.stringify(outcome).slice(0, 2000)}`,
  ).toBe(true);
  const seen = ran === undefined ? '' : ran.stdout + ran.stderr;
  expect(seen).not.toContain(plantedToken);
  expect(seen).not.toMatch(/FAKE(KEY|AWS|GIT|NPM|GH|KUBE|DOCKER|GPG)/u);
  return outcome;
}

describe('agent commands cannot reach outside the workspace', () => {
  it.each([
    ["git -c alias.x='!rm -rf ~' x"],
    ["git -c core.editor='rm -rf ~' commit --allow-empty"],
    ["script -qc 'rm -rf ~' /dev/null"],
    [`bash -c "$'\\x72\\x6d' -rf ~"`],
    ["alias x='rm -rf ~'\nx"],
    ["git config core.fsmonitor 'rm -rf ~; echo'"],
    ['bash -c \'bash <(echo rm -rf "$HOME")\''],
    ['ln -s ~ h && rm -rf h/'],
    ['ln -s ../victim l && rm -rf l/'],
    ['CDPATH=.. cd victim && rm -rf *'],
    ['rm -rf ~/.ssh ~/.aws ../victim'],
    ['echo pwned >> ~/.bashrc; echo x > ../victim/precious.txt; mv ../victim ../moved'],
    ['find ~ -name id_rsa -exec cat {} +; grep -rh FAKE ~; tar cf - ~ | strings | grep FAKE'],
    [
      'cat ~/.ssh/id_rsa ~/.aws/credentials ~/.config/git/credentials ~/.git-credentials ~/.npmrc ~/.config/gh/hosts.yml ~/.kube/config ~/.docker/config.json',
    ],
  ])('%s', async (command) => {
    await attack(command);
  });

  it('git status after an attempt to set core.fsmonitor runs no planted code', async () => {
    await attack("git config core.fsmonitor 'rm -rf ~; echo'");
    await attack('git status', true);
  });

  it('make -f - deletes only inside the workspace, after a checkpoint that brings the file back', async () => {
    const outcome = await attack(
      'touch doomed.txt && make -f - <<EOF\nall:\n\trm -f doomed.txt ../victim/precious.txt\nEOF',
    );
    expect(world.wasAsked(outcome)).toBe(true);
    expect(outcome.checkpoints.length).toBeGreaterThan(0);
  });

  it('cannot empty or even list $VIGIL_HOME, through a link or by name', async () => {
    await attack(`ln -s "${world.vigilHome}" v && rm -rf v/`);
    const listed = await attack(
      `ls -A "${world.vigilHome}"; cat "${world.vigilHome}/serve.json" "${world.vigilHome}/config.json"`,
    );
    expect(output(listed)?.stdout.trim()).toBe('');
    expect(readFileSync(path.join(world.vigilHome, 'serve.json'), 'utf8')).toContain(plantedToken);
  });

  it('finds no Vigil variable and no Vigil token in its environment', async () => {
    const listed = output(await attack('env; cat /proc/self/environ | tr "\\0" "\\n"', true));
    const names = (listed?.stdout ?? '').split('\n').map((line) => line.split('=')[0] ?? '');
    expect(names.filter((name) => /vigil/iu.test(name))).toEqual([]);
    expect(listed?.stdout).not.toContain(plantedToken);
  });

  it('refuses disk, power and kill-all commands before they run', async () => {
    for (const command of [
      'blkdiscard /dev/sda',
      'nvme format /dev/nvme0n1',
      'cryptsetup luksFormat /dev/sdb',
      'systemctl isolate poweroff.target',
      'loginctl poweroff',
      'killall5 -9',
      'crontab /dev/null',
    ]) {
      expect((await attack(command)).decision).toBe('blocked');
    }
  });
});

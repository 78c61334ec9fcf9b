import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigFile } from '../config/config-file';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { assessCommand, type CommandAssessment } from './assess-command';
import { PolicyEngine, type PolicyVerdict } from './policy-engine';

/** The gaps a hostile pass found in the shell policy (issue 17, item 5), on real folders. */
let dir: string;
let remove: () => Promise<void>;
let workspace: string;
let other: string;
let home: string;
let engine: PolicyEngine;

beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-policy-gaps-'));
  home = path.join(dir, 'home');
  workspace = path.join(dir, 'ws');
  other = path.join(dir, 'second-root');
  for (const folder of [home, workspace, other]) await mkdir(folder, { recursive: true });
  await writeFile(path.join(dir, 'config.json'), '{}');
  engine = new PolicyEngine({ config: new ConfigFile(path.join(dir, 'config.json')), logger: silentLogger });
});
afterEach(async () => {
  await remove();
});

function assess(command: string): Promise<CommandAssessment> {
  return assessCommand(command, {
    cwd: workspace,
    roots: [workspace, other],
    home,
    protectedPaths: [path.join(home, '.vigil')],
  });
}

async function verdict(command: string): Promise<PolicyVerdict> {
  return engine.decide({
    tool: 'terminal',
    paths: [{ absolute: workspace, root: workspace }],
    terminal: await assess(command),
  });
}

describe('disk, power and kill-all commands', () => {
  it.each([
    'blkdiscard /dev/nvme0n1',
    'nvme format /dev/nvme0n1',
    'sudo nvme sanitize /dev/nvme0',
    'cryptsetup luksFormat /dev/sdb1',
    'systemctl isolate poweroff.target',
    'systemctl start reboot.target',
    'loginctl poweroff',
    'loginctl terminate-user ada',
    'killall5 -9',
    'crontab /dev/null',
    'crontab -r',
    'echo ok && sh -c "killall5 -9"',
  ])('refuses %s', async (command) => {
    expect(await verdict(command)).toMatchObject({ kind: 'block' });
  });

  it('still allows the harmless forms of the same programs', async () => {
    expect((await verdict('systemctl status nginx')).kind).not.toBe('block');
    expect((await verdict('crontab -l')).kind).not.toBe('block');
    expect((await verdict('nvme list')).kind).not.toBe('block');
  });
});

describe('what the policy cannot see through asks, and checkpoints every root', () => {
  it.each([
    ['a CDPATH assignment', 'CDPATH=/parent cd victim && rm -rf *'],
    ['an exported CDPATH', 'export CDPATH=..; cd victim; rm -rf *'],
    ['a link made earlier in the command (home)', 'ln -s ~ h && rm -rf h/'],
    ['a link made earlier in the command (beside the workspace)', 'ln -s ../victim l && rm -rf l/'],
    ['a link to $VIGIL_HOME', 'ln -s "$VIGIL_HOME" v && rm -rf v/'],
    ['a link followed by cd', 'ln -s .. up && cd up && touch x'],
    ['ANSI-C quoting', `bash -c "$'\\x72\\x6d' -rf ~"`],
    ['ANSI-C quoting of the program', `$'\\162\\155' -rf ~`],
    ['an alias defined for the next line', "alias x='rm -rf ~'\nx"],
    ['script -c', "script -qc 'rm -rf ~' /dev/null"],
    ['git ! alias', "git -c alias.x='!rm -rf ~' x"],
    ['git core.editor', "git -c core.editor='rm -rf ~' commit --allow-empty"],
    ['git core.fsmonitor set for later', "git config core.fsmonitor 'rm -rf ~; echo' && git status"],
    ['git core.pager', 'git -c core.pager=\'sh -c "rm -rf ~"\' log'],
    ['git sequence.editor', "git -c sequence.editor='rm -rf ~' rebase -i HEAD~2"],
    ['GIT_EDITOR on the line', "GIT_EDITOR='rm -rf ~' git commit"],
    ['make -f -', 'make -f - <<EOF\nall:\n\trm -f f\nEOF'],
    ['git submodule foreach', "git submodule foreach 'rm -rf .'"],
    ['a script from a process substitution', "bash -c 'bash <(echo rm -f f)'"],
  ])('%s', async (_name, command) => {
    const assessment = await assess(command);
    expect(assessment.isWholeDirectory).toBe(true);
    expect([...assessment.checkpointRoots].sort()).toEqual([other, workspace].sort());
    expect((await verdict(command)).kind).not.toBe('allow');
  });
});

describe('writers the policy does not know', () => {
  it.each([
    'git read-tree -u --reset HEAD',
    'git checkout-index -a -f',
    'sort -o f /dev/null',
    'shuf -o f /dev/null',
    'curl -o f file:///dev/null',
    'wget -O f file:///dev/null',
    "ex -sc '%d|x' f",
    'vim -es -c "%d|x" f',
    "ed f <<< $'1d\\nw\\nq'",
    'patch -p1 < fix.diff',
    'npm test',
    'make',
    'python3 build.py',
    'git commit -am wip',
    'chmod +x run.sh',
  ])('%s is checkpointed: every writable root, before it runs', async (command) => {
    const assessment = await assess(command);
    expect(assessment.isDestructive).toBe(true);
    expect(assessment.isWholeDirectory).toBe(true);
    expect([...assessment.checkpointRoots].sort()).toEqual([other, workspace].sort());
  });

  it.each([
    'ls -la',
    'cat a.txt | grep x | wc -l',
    'git status && git diff --stat',
    'git log --oneline -5',
    'find . -name "*.ts"',
    'sort a.txt',
    'curl -s https://example.com',
    'echo hi',
    'sed -n 1,5p a.txt',
    'git branch',
    'jq .name package.json',
  ])('%s is provably read-only: no checkpoint', async (command) => {
    const assessment = await assess(command);
    expect(assessment.isDestructive).toBe(false);
    expect(assessment.checkpointRoots).toEqual([]);
  });

  it('keeps commands whose effects it reads scoped to what they name', async () => {
    const assessment = await assess('rm -f old.txt && mkdir -p out');
    expect(assessment).toMatchObject({ isWholeDirectory: false, checkpointRoots: [workspace], unknownPrograms: [] });
  });
});

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigFile } from '../config/config-file';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { assessCommand, type CommandAssessment } from './assess-command';
import { PolicyEngine, type PolicyVerdict } from './policy-engine';

/** Issue 30, item 4: code from workspace files is code, and shell code git runs is analysed like `sh -c`. */
let remove: () => Promise<void>;
let workspace: string;
let other: string;
let home: string;
let engine: PolicyEngine;

beforeEach(async () => {
  let dir: string;
  ({ dir, remove } = await makeTempDir('vigil-workspace-code-'));
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
  return assessCommand(command, { cwd: workspace, roots: [workspace, other], home });
}

async function verdict(command: string): Promise<PolicyVerdict> {
  return engine.decide({
    tool: 'terminal',
    paths: [{ absolute: workspace, root: workspace }],
    terminal: await assess(command),
  });
}

describe('a command that runs a workspace file is a possible writer: every root is checkpointed first', () => {
  it.each([
    ['a script on a shell’s input', 'sh < script.sh', /"sh" runs the code in script\.sh/u],
    ['bash reading a script', 'bash < script.sh', /"bash" runs the code in script\.sh/u],
    ['sh -s reading a script', 'sh -s < script.sh', /"sh" runs the code in script\.sh/u],
    ['a group reading a script', '{ sh; } < x.sh', /"sh" runs the code in x\.sh/u],
    ['a subshell reading a script', '(bash) < x.sh', /"bash" runs the code in x\.sh/u],
    ['source of the input', '. /dev/stdin < env.sh', /"\." runs the code in env\.sh/u],
    ['a program named like grep', './grep foo', /"\.\/grep" runs the file \.\/grep/u],
    ['a relative program path', 'bin/cat x', /"bin\/cat" runs the file bin\/cat/u],
    ['an absolute path into the workspace', '/ws/tools/ls', /"\/ws\/tools\/ls" runs the file/u],
    ['a wrapped program path', 'timeout 5 ./ls', /"\.\/ls" runs the file/u],
    ['a program path run by find', 'find . -name "*.c" -exec ./x {} +', /"\.\/x" runs the file/u],
    ['a program path run by xargs', 'ls | xargs tools/x', /"tools\/x" runs the file/u],
    ['a program path in a pipeline', 'cat a | ./filter', /"\.\/filter" runs the file/u],
    ['the current folder first on PATH', 'PATH=.:$PATH ls', /puts \. on PATH/u],
    ['an empty PATH entry (the current folder)', 'PATH=:$PATH ls', /puts \(empty: the current folder\) on PATH/u],
    ['an exported PATH', 'export PATH="$PWD/bin:$PATH"; ls', /puts \$PWD\/bin on PATH/u],
    ['PATH through env', 'env PATH=bin:/usr/bin ls', /puts bin on PATH/u],
    ['PATH read at run time', 'read PATH < p; ls', /"read PATH" sets PATH/u],
    ['LD_PRELOAD', 'LD_PRELOAD=./x.so ls', /sets LD_PRELOAD/u],
    ['LD_LIBRARY_PATH through env', 'env LD_LIBRARY_PATH=. cat a', /sets LD_LIBRARY_PATH/u],
    ['BASH_ENV', 'BASH_ENV=./x sh -c true', /sets BASH_ENV/u],
    ['ENV', 'ENV=./x sh -c true', /sets ENV/u],
    ['LESSOPEN', "LESSOPEN='|./x %s' less a", /sets LESSOPEN/u],
    ['ripgrep’s preprocessor', 'rg --pre ./x foo', /"rg --pre" runs a program/u],
    ['git grep’s pager', 'git grep -O./x foo', /"git -O\.\/x" runs a program/u],
    ['hash -p', 'hash -p ./x ls; ls', /"hash -p" runs a program/u],
    ['inside sh -c', "sh -c 'PATH=. ls'", /puts \. on PATH/u],
  ])('%s: %s', async (_name, command, reason) => {
    const assessment = await assess(command);
    expect(assessment.analysis.runsFiles.join('\n')).toMatch(reason);
    expect(assessment).toMatchObject({ isDestructive: true, isWholeDirectory: true });
    expect([...assessment.checkpointRoots].sort()).toEqual([other, workspace].sort());
    // Like `bash ./build.sh`: a checkpoint, not a question.
    expect((await verdict(command)).kind).toBe('allow');
  });

  it.each([
    'sh < /dev/null',
    '/usr/bin/grep -n x a.txt',
    '/bin/ls -la',
    'PATH=/usr/bin:/bin ls',
    'PATH="$PATH:/usr/local/bin" ls',
    'X="a b" ls',
    'ls | grep x',
    "sh -c 'ls'",
  ])('%s stays read-only: no checkpoint', async (command) => {
    const assessment = await assess(command);
    expect(assessment.analysis.runsFiles).toEqual([]);
    expect(assessment).toMatchObject({ isDestructive: false, checkpointRoots: [] });
  });
});

describe('shell code git runs from its settings gets the hardline treatment of sh -c', () => {
  it.each([
    ["git -c alias.x='!rm -rf ~' x", 'git -c alias.x=!rm -rf ~ x'],
    ["git -c core.editor='rm -rf ~' commit", 'git -c core.editor=rm -rf ~ commit'],
    ["git -c core.pager='rm -rf ~' log", 'git -c core.pager=rm -rf ~ log'],
    ["git -c core.fsmonitor='rm -rf ~' status", 'git -c core.fsmonitor=rm -rf ~ status'],
    ["git -c sequence.editor='rm -rf /' rebase -i HEAD~2", 'git -c sequence.editor=rm -rf / rebase -i HEAD~2'],
    ["git -c core.sshCommand='rm -rf ~' fetch", 'git -c core.sshCommand=rm -rf ~ fetch'],
    ["git -c filter.x.clean='mkfs.ext4 /dev/sda' add .", 'git -c filter.x.clean=mkfs.ext4 /dev/sda add .'],
    ["git -ccore.pager='rm -rf ~' log", 'git -ccore.pager=rm -rf ~ log'],
    ["git config alias.x '!rm -rf ~'", 'git config alias.x !rm -rf ~'],
    ["git config --global core.editor 'rm -rf ~'", 'git config --global core.editor rm -rf ~'],
    ["git rebase --exec 'rm -rf ~' HEAD~3", 'git rebase --exec rm -rf ~ HEAD~3'],
    ["sudo git -c alias.x='!rm -rf ~' x", 'git -c alias.x=!rm -rf ~ x'],
  ])('refuses %s, naming the rule and where the code came from', async (command, runner) => {
    const result = await verdict(command);
    expect(result.kind).toBe('block');
    expect(result.kind === 'block' ? result.reason : '').toContain(`in the shell code that "${runner}" runs`);
    expect(result.kind === 'block' ? result.reason : '').toContain('Rule: the hardline list');
  });

  it('refuses exactly what sh -c refuses', async () => {
    for (const code of ['rm -rf ~', 'rm -rf /', 'mkfs.ext4 /dev/sda', 'shutdown now', ':(){ :|:& };:']) {
      const quoted = `'${code}'`;
      expect((await verdict(`sh -c ${quoted}`)).kind, code).toBe('block');
      expect((await verdict(`git -c alias.x='!${code}' x`)).kind, code).toBe('block');
      expect((await verdict(`git -c core.pager=${quoted} log`)).kind, code).toBe('block');
    }
  });

  it('still only asks about settings that run harmless code or no shell code', async () => {
    for (const command of [
      "git -c alias.x='!npm test' x",
      "git -c core.pager='less -R' log",
      'git -c alias.st=status st',
      "git -c credential.helper='cache --timeout=60' fetch",
    ]) {
      const result = await verdict(command);
      expect(result.kind, command).toBe('ask');
    }
  });
});

describe('the PATH commands inherit', () => {
  const withPath = (command: string, searchPath: string): Promise<CommandAssessment> =>
    assessCommand(command, { cwd: workspace, roots: [workspace, other], home, searchPath });

  it.each([
    ['the current folder', '.:/usr/bin:/bin', /holds \./u],
    ['an empty entry', '/usr/bin:/bin:', /holds \(empty: the current folder\)/u],
    ['a relative folder', 'node_modules/.bin:/usr/bin', /holds node_modules\/\.bin/u],
  ])(
    'with %s on it, a plain program name may run a workspace file: every root is checkpointed',
    async (_name, searchPath, reason) => {
      const assessment = await withPath('ls', searchPath);
      expect(assessment.analysis.runsFiles.join('\n')).toMatch(reason);
      expect(assessment).toMatchObject({ isDestructive: true, isWholeDirectory: true });
    },
  );

  it('with a folder inside a workspace root on it, too', async () => {
    const assessment = await withPath('cat a.txt', `${path.join(workspace, 'bin')}:/usr/bin`);
    expect(assessment.analysis.runsFiles.join('\n')).toContain(path.join(workspace, 'bin'));
    expect(assessment.isWholeDirectory).toBe(true);
  });

  it('with only folders outside the workspace, read-only stays read-only; a lone cd runs no program', async () => {
    expect(await withPath('ls', '/usr/local/bin:/usr/bin:/bin')).toMatchObject({ isDestructive: false });
    expect(await withPath('cd sub', '.:/usr/bin')).toMatchObject({ isDestructive: false });
  });
});

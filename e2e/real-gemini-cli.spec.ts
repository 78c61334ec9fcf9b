import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { scenarioMarker, type Scenario } from '../electron/test-support/scripted-model/index';
import { checkpointsOf, realAgent, whyCannotRun, writePolicy, type RealAgent } from './fixtures/real-agents';
import { expect, test } from './fixtures/vigil-fixture';

/**
 * The real Gemini CLI (the pinned devDependency) run offline and headless (`gemini -p`) against
 * the scripted model, under Vigil's hooks as `vigil connect gemini-cli --hooks --write` installs
 * them, with `vigil serve` and its UI in Chromium.
 */

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

const tidy: Scenario = {
  name: 'gm-tidy',
  turns: [
    [{ kind: 'tool', name: 'write_file', input: { file_path: '${CWD}/hello.txt', content: 'hello\n' } }],
    [
      {
        kind: 'tool',
        name: 'replace',
        input: { file_path: '${CWD}/src/app.ts', old_string: 'one = 1', new_string: 'ONE = 1', instruction: 'Rename' },
      },
    ],
    [{ kind: 'tool', name: 'run_shell_command', input: { command: 'rm -rf legacy', description: 'Remove legacy' } }],
    [{ kind: 'tool', name: 'run_shell_command', input: { command: 'npm publish', description: 'Publish' } }],
    [{ kind: 'text', text: 'Tidied.' }],
  ],
};

const asking: Scenario = {
  name: 'gm-ask',
  turns: [
    [{ kind: 'tool', name: 'run_shell_command', input: { command: 'touch asked.txt', description: 'Marker' } }],
    [{ kind: 'tool', name: 'write_file', input: { file_path: '${CWD}/after.txt', content: 'after\n' } }],
    [{ kind: 'text', text: 'Asked.' }],
  ],
};

const bypass: Scenario = {
  name: 'gm-yolo',
  turns: [
    [{ kind: 'tool', name: 'write_file', input: { file_path: '${CWD}/secrets/key.pem', content: 'leak\n' } }],
    [{ kind: 'tool', name: 'run_shell_command', input: { command: 'rm -rf legacy', description: 'Remove legacy' } }],
    [{ kind: 'tool', name: 'run_shell_command', input: { command: 'npm publish', description: 'Publish' } }],
    [{ kind: 'text', text: 'Bypassed.' }],
  ],
};

/** A scenario in which the agent writes one file of its own name. */
function writer(name: string): Scenario {
  return {
    name,
    turns: [
      [{ kind: 'tool', name: 'write_file', input: { file_path: `\${CWD}/${name}.txt`, content: `${name}\n` } }],
      [{ kind: 'text', text: 'Written.' }],
    ],
  };
}

let agent: RealAgent | undefined;

test.beforeEach(async ({ vigil }) => {
  const why = await whyCannotRun('gemini');
  test.skip(why !== undefined, `Gemini CLI cannot run here: ${why ?? ''}`);
  test.skip(vigil.kind !== 'served', 'the agent relays to the vigil serve of this test');
  await writePolicy(vigil.home, [
    { effect: 'deny', tool: 'terminal', command: 'npm publish', reason: 'no publishing from tests' },
    { effect: 'ask', tool: 'terminal', command: 'touch', reason: 'the test asks about every touch' },
    { effect: 'deny', tool: ['write_file', 'patch'], path: 'secrets/**', reason: 'no secrets from tests' },
  ]);
  agent = await realAgent('gemini', { vigilHome: vigil.home, project: vigil.workspace }, [
    tidy,
    asking,
    bypass,
    writer('left'),
    writer('right'),
  ]);
  expect(await agent.vigil(['connect', 'gemini-cli', '--hooks', '--write'])).toContain('Wrote');
});

test.afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

function geminiCards(page: Page) {
  return page
    .locator('[data-testid="session-card"]')
    .filter({ has: page.locator('.session-agent', { hasText: 'gemini-cli' }) });
}

/** `gemini -p PROMPT --approval-mode yolo`: headless, every tool allowed by Gemini CLI itself, so Vigil alone decides. */
function headless(prompt: string): string[] {
  return ['-p', prompt, '--approval-mode', 'yolo'];
}

test('hooks: checkpoints before write_file (replace finds that one) and run_shell_command, a deny in the tool result, a restore, the session live and ended', async ({
  page,
  vigil,
}) => {
  if (agent === undefined) return;
  await mkdir(path.join(vigil.workspace, 'src'));
  await mkdir(path.join(vigil.workspace, 'legacy'));
  await writeFile(path.join(vigil.workspace, 'src/app.ts'), 'export const one = 1;\n');
  await writeFile(path.join(vigil.workspace, 'legacy/old.txt'), 'the old way\n');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');

  const run = await agent.run(headless(`${scenarioMarker('gm-tidy')} Tidy the project`));
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Tidied.');
  const results = agent.model.results('gm-tidy');
  const publish = results.find((result) => result.id === 'vigil_t3_0');
  expect(publish?.text).toContain('no publishing from tests');
  expect(await readFile(path.join(vigil.workspace, 'hello.txt'), 'utf8')).toBe('hello\n');
  expect(await readFile(path.join(vigil.workspace, 'src/app.ts'), 'utf8')).toBe('export const ONE = 1;\n');
  expect(await exists(path.join(vigil.workspace, 'legacy'))).toBe(false);

  const checkpoints = await checkpointsOf(agent, vigil.workspace);
  expect(checkpoints.map((checkpoint) => checkpoint.reason)).toEqual([
    'before terminal: rm -rf legacy',
    'before write_file',
  ]);
  for (const checkpoint of checkpoints) expect(checkpoint.attribution).toMatchObject({ agent: 'gemini-cli' });

  const card = geminiCards(page);
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute('data-status', 'ended');
  await expect(card).toHaveAttribute('data-calls', '4');

  await agent.vigil(['checkpoints', 'restore', vigil.workspace, String(checkpoints[0]?.number ?? 0)]);
  expect(await readFile(path.join(vigil.workspace, 'legacy/old.txt'), 'utf8')).toBe('the old way\n');
});

test('headless: an ask, which no person can answer, is a deny with its reason; later calls still run', async ({
  vigil,
}) => {
  // gemini -p has nobody to ask: Vigil's ask must arrive as a deny with the reason, never a silent end.
  if (agent === undefined) return;
  const run = await agent.run(headless(`${scenarioMarker('gm-ask')} Make a marker`));
  expect(run.code, run.stderr).toBe(0);
  const [touch] = agent.model.results('gm-ask');
  expect(touch?.text).toContain('the test asks about every touch');
  expect(await exists(path.join(vigil.workspace, 'asked.txt'))).toBe(false);
  expect(await readFile(path.join(vigil.workspace, 'after.txt'), 'utf8')).toBe('after\n');
});

test('bypass mode (--yolo, Gemini CLI approves everything itself): Vigil still refuses a file tool and a command it denies, and checkpoints before run_shell_command', async ({
  vigil,
}) => {
  if (agent === undefined) return;
  await mkdir(path.join(vigil.workspace, 'legacy'));
  await writeFile(path.join(vigil.workspace, 'legacy/old.txt'), 'the old way\n');
  const run = await agent.run(['--yolo', '-p', `${scenarioMarker('gm-yolo')} Do it all`]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Bypassed.');
  const [secret, remove, publish] = agent.model.results('gm-yolo');
  expect(secret?.text).toContain('no secrets from tests');
  expect(remove?.isError).toBe(false);
  expect(publish?.text).toContain('no publishing from tests');
  expect(await exists(path.join(vigil.workspace, 'secrets/key.pem'))).toBe(false);
  expect(await exists(path.join(vigil.workspace, 'legacy'))).toBe(false);
  const checkpoints = await checkpointsOf(agent, vigil.workspace);
  expect(checkpoints.map((checkpoint) => checkpoint.reason)).toEqual(['before terminal: rm -rf legacy']);
});

test('two sessions at once in one folder: each call is attributed to its own session', async ({ page }) => {
  if (agent === undefined) return;
  const gemini = agent;
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const runs = await Promise.all(
    ['left', 'right'].map((name) => gemini.run(headless(`${scenarioMarker(name)} Write your file`))),
  );
  for (const run of runs) expect(run.code, run.stderr).toBe(0);
  const { sessions } = JSON.parse(await gemini.vigil(['sessions', 'list', '--json'])) as {
    sessions: { id: string; recentCalls: { name: string; summary: string }[] }[];
  };
  expect(sessions).toHaveLength(2);
  const files = sessions.map((session) =>
    session.recentCalls.map((call) => `${call.name} ${path.basename(call.summary)}`),
  );
  expect(files.sort()).toEqual([['write_file left.txt'], ['write_file right.txt']]);
  await expect(geminiCards(page)).toHaveCount(2);
  for (const session of sessions)
    await expect(page.locator(`[data-testid="session-card"][data-session-id="${session.id}"]`)).toHaveAttribute(
      'data-status',
      'ended',
    );
});

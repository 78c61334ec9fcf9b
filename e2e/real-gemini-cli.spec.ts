import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { whyNoTerminal } from '../electron/test-support/real-agents/index';
import { scenarioMarker, type Scenario } from '../electron/test-support/scripted-model/index';
import { checkpointsOf, realAgent, whyCannotRun, writePolicy, type RealAgent } from './fixtures/real-agents';
import { expect, test } from './fixtures/vigil-fixture';

/**
 * The real Gemini CLI (the pinned devDependency) run offline against the scripted model, headless
 * (`gemini -p`) or interactive on a pseudo-terminal (`gemini -i`, its own confirmation answered by
 * typed keys), under Vigil's hooks as `vigil connect gemini-cli --hooks --write` installs them,
 * with `vigil serve` and its UI in Chromium.
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

/** Run interactive: Gemini CLI would confirm a write_file itself too, so the scenario asks about the command alone. */
const prompted: Scenario = {
  name: 'gm-prompt',
  turns: [
    [{ kind: 'tool', name: 'run_shell_command', input: { command: 'touch asked.txt', description: 'Marker' } }],
    [{ kind: 'text', text: 'Answered.' }],
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
    prompted,
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

/** Gemini CLI's own confirmation of `touch asked.txt`, with Vigil's reason on its own line inside the box. */
const confirmation = /Shell\s+touch asked\.txt[\s│]*Vigil: the test asks about every touch[\s\S]*?Allow once/u;

/** Ctrl+C, typed once the turn has ended (`when`); typed again when asked to, it ends interactive Gemini CLI. */
function quitAfter(when: RegExp) {
  return [
    { when, keys: '\u0003' },
    { when: /again to exit/u, keys: '\u0003' },
  ];
}

/** A promise and the function that settles it. */
function gate(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

test("interactive, in a terminal: Vigil's ask is Gemini CLI's own confirmation with Vigil's reason; while it waits, its card and Approvals show it, read-only; allowed there, the command runs", async ({
  page,
  vigil,
}) => {
  if (agent === undefined) return;
  const noTerminal = await whyNoTerminal();
  test.skip(noTerminal !== undefined, `no pseudo-terminal here: ${noTerminal ?? ''}`);
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const atPrompt = gate();
  const answer = gate();
  const running = agent.runInTerminal(
    ['-i', `${scenarioMarker('gm-prompt')} Make a marker`],
    [
      {
        when: confirmation,
        keys: async () => {
          atPrompt.open();
          await answer.promise;
          return '\r';
        },
      },
      ...quitAfter(/Answered\./u),
    ],
  );
  try {
    // Gemini CLI now waits at its own confirmation: Vigil's hook answered "ask" before it asked.
    await Promise.race([atPrompt.promise, running]);
    const card = geminiCards(page);
    await expect(card).toHaveAttribute('data-status', 'waiting-approval');
    await expect(card.getByTestId('session-pending-call')).toHaveText(
      'asking in Gemini CLI: run_shell_command touch asked.txt',
    );
    await page.keyboard.press('Alt+4');
    const entry = page.getByTestId('agent-prompt-card');
    await expect(entry).toHaveCount(1);
    await expect(entry.getByTestId('approval-command')).toHaveText('touch asked.txt');
    await expect(entry).toContainText('the test asks about every touch');
    await expect(entry.getByTestId('agent-prompt-note')).toContainText(
      "The decision is made in Gemini CLI's own permission prompt",
    );
    await expect(entry.getByRole('button')).toHaveCount(0);
  } finally {
    answer.open();
  }
  const run = await running;
  expect(run.stepsTaken, run.stdout.slice(-3000)).toBe(3);
  expect(run.code, run.stderr).toBe(0);
  const [touch] = agent.model.results('gm-prompt');
  expect(touch?.isError).toBe(false);
  expect(await exists(path.join(vigil.workspace, 'asked.txt'))).toBe(true);

  // Answered: it leaves Approvals; the session ends when Gemini CLI exits.
  await expect(page.getByTestId('agent-prompt-card')).toHaveCount(0);
  await page.keyboard.press('Alt+1');
  const card = geminiCards(page);
  await expect(card.getByTestId('session-pending-call')).toHaveCount(0);
  await expect(card.getByTestId('session-call')).toHaveAttribute('data-decision', 'asked-allowed');
  await expect(card).toHaveAttribute('data-status', 'ended');
});

test("interactive, in a terminal: refused in Gemini CLI's own confirmation (Esc), the command does not run; the session ends with nothing left asking", async ({
  page,
  vigil,
}) => {
  if (agent === undefined) return;
  const noTerminal = await whyNoTerminal();
  test.skip(noTerminal !== undefined, `no pseudo-terminal here: ${noTerminal ?? ''}`);
  const run = await agent.runInTerminal(
    ['-i', `${scenarioMarker('gm-prompt')} Make a marker`],
    [{ when: confirmation, keys: '\u001b' }, ...quitAfter(/Request cancelled\./u)],
  );
  expect(run.stepsTaken, run.stdout.slice(-3000)).toBe(3);
  expect(run.code, run.stderr).toBe(0);
  expect(agent.model.results('gm-prompt')).toEqual([]);
  expect(await exists(path.join(vigil.workspace, 'asked.txt'))).toBe(false);
  const card = geminiCards(page);
  await expect(card).toHaveAttribute('data-status', 'ended');
  await expect(card.getByTestId('session-pending-call')).toHaveCount(0);
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('agent-prompt-card')).toHaveCount(0);
  await expect(page.getByTestId('approvals-empty')).toBeVisible();
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

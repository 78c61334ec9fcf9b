import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { scenarioMarker, type Scenario } from '../electron/test-support/scripted-model/index';
import { checkpointsOf, realAgent, whyCannotRun, writePolicy, type RealAgent } from './fixtures/real-agents';
import { expect, test } from './fixtures/vigil-fixture';

/**
 * The real Claude Code (the pinned devDependency) run offline against the scripted model, under
 * Vigil's hooks as `vigil connect claude-code --hooks --write` installs them, with `vigil serve`
 * and its UI in Chromium.
 */

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

const tidy: Scenario = {
  name: 'cc-tidy',
  turns: [
    [{ kind: 'tool', name: 'Read', input: { file_path: '${CWD}/src/app.ts' } }],
    [
      { kind: 'text', text: 'Renaming the constant.' },
      {
        kind: 'tool',
        name: 'Edit',
        input: { file_path: '${CWD}/src/app.ts', old_string: 'one = 1', new_string: 'ONE = 1' },
      },
    ],
    [{ kind: 'tool', name: 'Bash', input: { command: 'rm -rf legacy', description: 'Remove the legacy folder' } }],
    [{ kind: 'tool', name: 'Bash', input: { command: 'npm publish', description: 'Publish' } }],
    [{ kind: 'text', text: 'Tidied.' }],
  ],
};

const asking: Scenario = {
  name: 'cc-ask',
  turns: [
    [{ kind: 'tool', name: 'Bash', input: { command: 'touch asked.txt', description: 'Make a marker' } }],
    [{ kind: 'text', text: 'Asked.' }],
  ],
};

/** A scenario in which the agent writes one file of its own name. */
function writer(name: string): Scenario {
  return {
    name,
    turns: [
      [{ kind: 'tool', name: 'Write', input: { file_path: `\${CWD}/${name}.txt`, content: `${name}\n` } }],
      [{ kind: 'text', text: 'Written.' }],
    ],
  };
}

const bypass: Scenario = {
  name: 'cc-bypass',
  turns: [
    [{ kind: 'tool', name: 'Bash', input: { command: 'mkdir made && npm publish', description: 'Publish' } }],
    [{ kind: 'tool', name: 'Bash', input: { command: 'rm -rf legacy', description: 'Remove the legacy folder' } }],
    [{ kind: 'text', text: 'Bypassed.' }],
  ],
};

const rules = [
  { effect: 'deny', tool: 'terminal', command: 'npm publish', reason: 'no publishing from tests' },
  { effect: 'ask', tool: 'terminal', command: 'touch', reason: 'the test asks about every touch' },
];

let agent: RealAgent | undefined;

test.beforeEach(async ({ vigil }) => {
  const why = await whyCannotRun('claude');
  test.skip(why !== undefined, `Claude Code cannot run here: ${why ?? ''}`);
  test.skip(vigil.kind !== 'served', 'the agent relays to the vigil serve of this test');
  await writePolicy(vigil.home, rules);
  agent = await realAgent('claude', { vigilHome: vigil.home, project: vigil.workspace }, [
    tidy,
    asking,
    bypass,
    writer('left'),
    writer('right'),
  ]);
  expect(await agent.vigil(['connect', 'claude-code', '--hooks', '--write'])).toContain('Wrote');
});

test.afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

function claudeCards(page: Page) {
  return page
    .locator('[data-testid="session-card"]')
    .filter({ has: page.locator('.session-agent', { hasText: 'claude-code' }) });
}

test('hooks: checkpoints before Edit and Bash, a deny in the tool result, a restore of what Bash deleted, the session live and ended', async ({
  page,
  vigil,
}) => {
  if (agent === undefined) return;
  await mkdir(path.join(vigil.workspace, 'src'));
  await mkdir(path.join(vigil.workspace, 'legacy'));
  await writeFile(path.join(vigil.workspace, 'src/app.ts'), 'export const one = 1;\n');
  await writeFile(path.join(vigil.workspace, 'legacy/old.txt'), 'the old way\n');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');

  const run = await agent.run([
    '-p',
    `${scenarioMarker('cc-tidy')} Tidy the project`,
    '--allowedTools',
    'Read Edit Bash',
  ]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Tidied.');

  const results = agent.model.results('cc-tidy');
  expect(results.find((result) => result.id === 'toolu_vigil_t1_1')).toMatchObject({ isError: false });
  const publish = results.find((result) => result.id === 'toolu_vigil_t3_0');
  expect(publish).toMatchObject({ isError: true });
  expect(publish?.text).toContain('no publishing from tests');
  expect(await readFile(path.join(vigil.workspace, 'src/app.ts'), 'utf8')).toBe('export const ONE = 1;\n');
  expect(await exists(path.join(vigil.workspace, 'legacy'))).toBe(false);

  const checkpoints = await checkpointsOf(agent, vigil.workspace);
  expect(checkpoints.map((checkpoint) => checkpoint.reason)).toEqual(['before terminal: rm -rf legacy', 'before Edit']);
  for (const checkpoint of checkpoints) expect(checkpoint.attribution).toMatchObject({ agent: 'claude-code' });

  const card = claudeCards(page);
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute('data-status', 'ended');
  await expect(card).toHaveAttribute('data-calls', '3');

  const beforeRm = checkpoints[0]?.number ?? 0;
  await agent.vigil(['checkpoints', 'restore', vigil.workspace, String(beforeRm)]);
  expect(await readFile(path.join(vigil.workspace, 'legacy/old.txt'), 'utf8')).toBe('the old way\n');
});

/**
 * The stream-json conversation of `--permission-prompt-tool stdio`: the prompt, then an answer to
 * each permission request, given once `hold` settles (Claude Code waits at its prompt until then).
 */
function promptAnswering(
  prompt: string,
  behavior: 'allow' | 'deny',
  asked: Record<string, unknown>[],
  hold: () => Promise<void> = () => Promise.resolve(),
) {
  return {
    input: `${JSON.stringify({ type: 'user', message: { role: 'user', content: prompt }, parent_tool_use_id: null, session_id: '' })}\n`,
    converse: (line: string) => {
      const message = JSON.parse(line.trim() === '' ? '{}' : line) as {
        type?: string;
        request_id?: string;
        request?: { subtype?: string; input?: unknown };
      };
      if (message.type === 'result') return { isDone: true };
      if (message.type !== 'control_request' || message.request?.subtype !== 'can_use_tool') return {};
      asked.push(message.request);
      const response =
        behavior === 'allow'
          ? { behavior: 'allow', updatedInput: message.request.input }
          : { behavior: 'deny', message: 'The person said no.' };
      const answer = JSON.stringify({
        type: 'control_response',
        response: { subtype: 'success', request_id: message.request_id, response },
      });
      return { reply: hold().then(() => [answer]) };
    },
  };
}

/** A promise and the function that settles it. */
function gate(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

test("an ask is answered in Claude Code's own permission prompt (scripted through --permission-prompt-tool stdio); while it waits, its card and Approvals show it, read-only", async ({
  page,
  vigil,
}) => {
  if (agent === undefined) return;
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const asked: Record<string, unknown>[] = [];
  const atPrompt = gate();
  const answer = gate();
  const running = agent.run(
    [
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-prompt-tool',
      'stdio',
      '--allowedTools',
      'Read',
    ],
    promptAnswering(`${scenarioMarker('cc-ask')} Make a marker`, 'allow', asked, () => {
      atPrompt.open();
      return answer.promise;
    }),
  );
  try {
    // Claude Code now waits at its own prompt: Vigil's hook answered "ask" before it asked.
    await atPrompt.promise;
    const card = claudeCards(page);
    await expect(card).toHaveAttribute('data-status', 'waiting-approval');
    await expect(card.getByTestId('session-pending-call')).toHaveText('asking in Claude Code: Bash touch asked.txt');
    await expect(card.getByTestId('session-last-call')).toHaveCount(0);

    await page.keyboard.press('Alt+4');
    const entry = page.getByTestId('agent-prompt-card');
    await expect(entry).toHaveCount(1);
    await expect(entry.getByTestId('approval-command')).toHaveText('touch asked.txt');
    await expect(entry).toContainText('the test asks about every touch');
    await expect(entry.getByTestId('agent-prompt-note')).toContainText(
      "The decision is made in Claude Code's own permission prompt",
    );
    await expect(entry.getByRole('button')).toHaveCount(0);
    await expect(page.getByTestId('approvals-count')).toHaveText('1 waiting');
  } finally {
    answer.open();
  }
  const run = await running;
  expect(run.code, run.stderr).toBe(0);
  expect(asked).toHaveLength(1);
  expect(JSON.stringify(asked[0])).toContain('the test asks about every touch');
  expect(await exists(path.join(vigil.workspace, 'asked.txt'))).toBe(true);

  // Answered: it leaves Approvals, and the card shows the call's result as for any other call.
  await expect(page.getByTestId('agent-prompt-card')).toHaveCount(0);
  await expect(page.getByTestId('approvals-empty')).toBeVisible();
  await page.keyboard.press('Alt+1');
  const card = claudeCards(page);
  await expect(card.getByTestId('session-pending-call')).toHaveCount(0);
  await expect(card.getByTestId('session-call')).toHaveAttribute('data-decision', 'asked-allowed');
});

test('headless (claude -p, no one to ask): an ask ends as a refusal in the tool result, and the command does not run', async ({
  vigil,
}) => {
  if (agent === undefined) return;
  const run = await agent.run(['-p', `${scenarioMarker('cc-ask')} Make a marker`, '--allowedTools', 'Read']);
  expect(run.code, run.stderr).toBe(0);
  expect(agent.model.results('cc-ask')).toEqual([expect.objectContaining({ id: 'toolu_vigil_t0_0', isError: true })]);
  expect(await exists(path.join(vigil.workspace, 'asked.txt'))).toBe(false);
});

test('bypass mode (--dangerously-skip-permissions): Vigil still refuses what it denies, and checkpoints before Bash', async ({
  vigil,
}) => {
  if (agent === undefined) return;
  await mkdir(path.join(vigil.workspace, 'legacy'));
  await writeFile(path.join(vigil.workspace, 'legacy/old.txt'), 'the old way\n');
  const run = await agent.run(['-p', `${scenarioMarker('cc-bypass')} Ship it`, '--dangerously-skip-permissions']);
  expect(run.code, run.stderr).toBe(0);
  const [publish] = agent.model.results('cc-bypass');
  expect(publish).toMatchObject({ id: 'toolu_vigil_t0_0', isError: true });
  expect(publish?.text).toContain('no publishing from tests');
  expect(await exists(path.join(vigil.workspace, 'made'))).toBe(false);
  expect((await checkpointsOf(agent, vigil.workspace)).map((checkpoint) => checkpoint.reason)).toEqual([
    'before terminal: rm -rf legacy',
  ]);
});

test('bypass mode: an ask, which no person will see, is answered as a deny with its reason', async ({ vigil }) => {
  // Claude Code obeys only a deny in this mode: Vigil's ask must arrive as one, with the reason.
  if (agent === undefined) return;
  const run = await agent.run(['-p', `${scenarioMarker('cc-ask')} Make a marker`, '--dangerously-skip-permissions']);
  expect(run.code, run.stderr).toBe(0);
  const [touch] = agent.model.results('cc-ask');
  expect(touch).toMatchObject({ isError: true });
  expect(touch?.text).toContain('the test asks about every touch');
  expect(await exists(path.join(vigil.workspace, 'asked.txt'))).toBe(false);
});

test('two sessions at once in one folder: each call is attributed to its own session', async ({ page }) => {
  if (agent === undefined) return;
  const claude = agent;
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const runs = await Promise.all(
    ['left', 'right'].map((name) =>
      claude.run(['-p', `${scenarioMarker(name)} Write your file`, '--allowedTools', 'Write']),
    ),
  );
  for (const run of runs) expect(run.code, run.stderr).toBe(0);
  const { sessions } = JSON.parse(await claude.vigil(['sessions', 'list', '--json'])) as {
    sessions: { id: string; agent: string; status: string; recentCalls: { name: string; summary: string }[] }[];
  };
  expect(sessions).toHaveLength(2);
  const files = sessions.map((session) =>
    session.recentCalls.map((call) => `${call.name} ${path.basename(call.summary)}`),
  );
  expect(files.sort()).toEqual([['Write left.txt'], ['Write right.txt']]);
  await expect(claudeCards(page)).toHaveCount(2);
  for (const session of sessions)
    await expect(page.locator(`[data-testid="session-card"][data-session-id="${session.id}"]`)).toHaveAttribute(
      'data-status',
      'ended',
    );
});

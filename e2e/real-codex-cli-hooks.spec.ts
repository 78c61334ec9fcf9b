import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { scenarioMarker, type Scenario } from '../electron/test-support/scripted-model/index';
import { checkpointsOf, realAgent, whyCannotRun, writePolicy, type RealAgent } from './fixtures/real-agents';
import { expect, test } from './fixtures/vigil-fixture';

/**
 * The real Codex CLI (`codex exec`, the pinned devDependency) run offline against the scripted
 * model, under Vigil's hooks as `vigil connect codex --hooks --write` installs them in its
 * hooks.json, with `vigil serve` and its UI in Chromium. `-m gpt-5.5` makes Codex offer its
 * apply_patch tool (a freeform tool, which it gives a model it knows); `--dangerously-bypass-hook-trust`
 * runs the hooks without Codex's review of them (a person trusts them once in /hooks), and
 * `--dangerously-bypass-approvals-and-sandbox` is Codex's bypass mode (its own sandbox needs
 * namespaces this container may not lend): Vigil's deny still refuses there.
 */

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

const patchApp = [
  '*** Begin Patch',
  '*** Update File: src/app.ts',
  '@@',
  '-export const one = 1;',
  '+export const ONE = 1;',
  '*** Add File: notes.txt',
  '+renamed one to ONE',
  '*** End Patch',
  '',
].join('\n');

const tidy: Scenario = {
  name: 'cx-tidy',
  turns: [
    [{ kind: 'freeform', name: 'apply_patch', input: patchApp }],
    [{ kind: 'tool', name: 'exec_command', input: { cmd: 'npm publish' } }],
    [{ kind: 'tool', name: 'exec_command', input: { cmd: 'rm -r legacy' } }],
    // Holds Codex in a running call until the test has seen it live in the UI.
    [{ kind: 'tool', name: 'exec_command', input: { cmd: 'until [ -e release.flag ]; do sleep 0.1; done' } }],
    [{ kind: 'text', text: 'Tidied.' }],
  ],
};

/** A scenario whose every change Vigil refuses: an ask (a deny in Codex), a rule on a path, a path outside the workspace. */
function refusals(outside: string): Scenario {
  const add = (file: string): string => `*** Begin Patch\n*** Add File: ${file}\n+x\n*** End Patch\n`;
  return {
    name: 'cx-refuse',
    turns: [
      [{ kind: 'tool', name: 'exec_command', input: { cmd: 'touch asked.txt' } }],
      [{ kind: 'freeform', name: 'apply_patch', input: add('locked/key.txt') }],
      [{ kind: 'freeform', name: 'apply_patch', input: add(outside) }],
      [{ kind: 'text', text: 'Refused.' }],
    ],
  };
}

/** A scenario in which Codex adds one file of its own name with apply_patch. */
function writer(name: string): Scenario {
  return {
    name,
    turns: [
      [
        {
          kind: 'freeform',
          name: 'apply_patch',
          input: `*** Begin Patch\n*** Add File: ${name}.txt\n+${name}\n*** End Patch\n`,
        },
      ],
      [{ kind: 'text', text: 'Written.' }],
    ],
  };
}

const rules = [
  { effect: 'deny', tool: 'terminal', command: 'npm publish', reason: 'no publishing from tests' },
  { effect: 'ask', tool: 'terminal', command: 'touch', reason: 'the test asks about every touch' },
  { effect: 'deny', tool: 'patch', path: 'locked/**', reason: 'locked files stay as they are' },
];

let agent: RealAgent | undefined;

test.beforeEach(async ({ vigil }) => {
  const why = await whyCannotRun('codex');
  test.skip(why !== undefined, `Codex CLI cannot run here: ${why ?? ''}`);
  test.skip(vigil.kind !== 'served', 'the agent relays to the vigil serve of this test');
  await writePolicy(vigil.home, rules);
  agent = await realAgent('codex', { vigilHome: vigil.home, project: vigil.workspace }, [
    tidy,
    writer('cx-left'),
    writer('cx-right'),
  ]);
  const connected = await agent.vigil(['connect', 'codex', '--hooks', '--write']);
  expect(connected).toContain(`Wrote ${path.join(agent.home, '.codex', 'hooks.json')}`);
});

test.afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

/** `codex exec PROMPT` in bypass mode, its hooks run unreviewed, with a model Codex gives apply_patch. */
function exec(prompt: string): string[] {
  return [
    'exec',
    '--skip-git-repo-check',
    '--dangerously-bypass-hook-trust',
    '--dangerously-bypass-approvals-and-sandbox',
    '-m',
    'gpt-5.5',
    prompt,
  ];
}

function codexCards(page: Page) {
  return page
    .locator('[data-testid="session-card"]')
    .filter({ has: page.locator('.session-agent', { hasText: /^codex$/ }) });
}

test('hooks (codex exec, bypass mode): checkpoints before apply_patch and a shell rm, a deny in the tool result, the session live and ended, a restore of what rm deleted', async ({
  page,
  vigil,
}) => {
  if (agent === undefined) return;
  await mkdir(path.join(vigil.workspace, 'src'));
  await mkdir(path.join(vigil.workspace, 'legacy'));
  await writeFile(path.join(vigil.workspace, 'src/app.ts'), 'export const one = 1;\n');
  await writeFile(path.join(vigil.workspace, 'legacy/old.txt'), 'the old way\n');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');

  const running = agent.run(exec(`${scenarioMarker('cx-tidy')} Tidy the project`));
  const card = codexCards(page);
  await expect(card.getByTestId('session-pending-call')).toContainText('running in Codex CLI: Bash until', {
    timeout: 60_000,
  });
  await expect(card).toHaveAttribute('data-status', /^(?!ended)/);
  await writeFile(path.join(vigil.workspace, 'release.flag'), '');
  const run = await running;
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Tidied.');

  const [patch, publish, rm] = agent.model.results('cx-tidy');
  expect(patch?.text).toContain('Success. Updated the following files');
  expect(publish?.text).toContain('no publishing from tests');
  expect(rm?.id).toBe('call_vigil_t2_0');
  expect(await readFile(path.join(vigil.workspace, 'src/app.ts'), 'utf8')).toBe('export const ONE = 1;\n');
  expect(await exists(path.join(vigil.workspace, 'legacy'))).toBe(false);

  const checkpoints = await checkpointsOf(agent, vigil.workspace);
  const reasons = checkpoints.map((checkpoint) => checkpoint.reason);
  expect(reasons).toContain('before apply_patch');
  expect(reasons).toContain('before terminal: rm -r legacy');
  expect(reasons).not.toContain('before terminal: npm publish');
  for (const checkpoint of checkpoints) expect(checkpoint.attribution).toMatchObject({ agent: 'codex' });

  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute('data-status', 'ended');

  const beforePatch = checkpoints.find((checkpoint) => checkpoint.reason === 'before apply_patch')?.number ?? 0;
  const diff = await agent.vigil(['checkpoints', 'diff', vigil.workspace, String(beforePatch)]);
  expect(diff).toContain('src/app.ts');
  const beforeRm = checkpoints.find((checkpoint) => checkpoint.reason === 'before terminal: rm -r legacy')?.number ?? 0;
  await agent.vigil(['checkpoints', 'restore', vigil.workspace, String(beforeRm)]);
  expect(await readFile(path.join(vigil.workspace, 'legacy/old.txt'), 'utf8')).toBe('the old way\n');
});

test("refusals reach Codex's tool result: an ask (Codex takes only deny), an apply_patch a rule denies, one outside the workspace; nothing runs, nothing is checkpointed", async ({
  vigil,
}) => {
  if (agent === undefined) return;
  const outside = path.join(agent.home, 'elsewhere', 'x.txt');
  agent.model.add(refusals(outside));
  const run = await agent.run(exec(`${scenarioMarker('cx-refuse')} Make three changes`));
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Refused.');

  const [touch, locked, elsewhere] = agent.model.results('cx-refuse');
  expect(touch?.text).toContain('the test asks about every touch');
  expect(touch?.text).toContain('Codex CLI takes only "deny"');
  expect(touch?.text).toContain(`run it yourself in a terminal in ${vigil.workspace}: touch asked.txt`);
  expect(locked?.text).toContain('locked files stay as they are');
  expect(elsewhere?.text).toContain("outside the session's workspace");
  expect(await exists(path.join(vigil.workspace, 'asked.txt'))).toBe(false);
  expect(await exists(path.join(vigil.workspace, 'locked'))).toBe(false);
  expect(await exists(outside)).toBe(false);
  await expect(checkpointsOf(agent, vigil.workspace)).rejects.toThrow('has no checkpoints');

  const sessions = JSON.parse(await agent.vigil(['sessions', 'list', '--json'])) as {
    sessions: { id: string; agent: string; status: string }[];
  };
  const session = sessions.sessions.find((candidate) => candidate.agent === 'codex');
  expect(session?.status).toBe('ended');
  const shown = await agent.vigil(['sessions', 'show', session?.id ?? '']);
  expect(shown.match(/\[blocked\]/g)).toHaveLength(3);
});

test('two sessions at once in one folder: each call is attributed to its own session, and both end', async ({
  page,
  vigil,
}) => {
  if (agent === undefined) return;
  const codex = agent;
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const runs = await Promise.all(
    ['cx-left', 'cx-right'].map((name) => codex.run(exec(`${scenarioMarker(name)} Write your file`))),
  );
  for (const run of runs) expect(run.code, run.stderr).toBe(0);
  expect(await readFile(path.join(vigil.workspace, 'cx-left.txt'), 'utf8')).toBe('cx-left\n');
  expect(await readFile(path.join(vigil.workspace, 'cx-right.txt'), 'utf8')).toBe('cx-right\n');
  const { sessions } = JSON.parse(await codex.vigil(['sessions', 'list', '--json'])) as {
    sessions: { id: string; recentCalls: { name: string; summary: string }[] }[];
  };
  expect(sessions).toHaveLength(2);
  const summaries = sessions.map((session) => session.recentCalls.map((call) => call.summary).join(' '));
  const left = summaries.filter((summary) => summary.includes('cx-left.txt'));
  const right = summaries.filter((summary) => summary.includes('cx-right.txt'));
  expect([left.length, right.length]).toEqual([1, 1]);
  expect(left[0]).not.toContain('cx-right.txt');
  expect(right[0]).not.toContain('cx-left.txt');
  // Two sessions of one agent are numbered on their cards ("codex #1", "codex #2").
  const cards = page
    .locator('[data-testid="session-card"]')
    .filter({ has: page.locator('.session-agent', { hasText: /^codex\b/ }) });
  await expect(cards).toHaveCount(2);
  for (const session of sessions)
    await expect(page.locator(`[data-testid="session-card"][data-session-id="${session.id}"]`)).toHaveAttribute(
      'data-status',
      'ended',
    );
});

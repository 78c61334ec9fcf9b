import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { scenarioMarker, type Scenario } from '../electron/test-support/scripted-model/index';
import { checkpointsOf, realAgent, whyCannotRun, writePolicy, type RealAgent } from './fixtures/real-agents';
import { expect, test } from './fixtures/vigil-fixture';

/**
 * The real Codex CLI (`codex exec`, the pinned devDependency) run offline against the scripted
 * model (a `model_providers` entry on the Responses API in its config.toml), using Vigil's MCP
 * tools as `vigil connect codex [--http] --write` configures them: over stdio (it starts `vigil
 * mcp`) and over HTTP (the credential read from $VIGIL_AGENT_TOKEN). Vigil refuses what its rules
 * deny, and the approval it asks for is decided in the UI.
 */

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

const overMcp: Scenario = {
  name: 'cx-mcp',
  turns: [
    [{ kind: 'tool', name: 'mcp__vigil__terminal', input: { command: 'npm publish' } }],
    [{ kind: 'tool', name: 'mcp__vigil__terminal', input: { command: 'touch from-codex.txt' } }],
    [{ kind: 'text', text: 'Touched.' }],
  ],
};

let agent: RealAgent | undefined;

test.beforeEach(async ({ vigil }) => {
  const why = await whyCannotRun('codex');
  test.skip(why !== undefined, `Codex CLI cannot run here: ${why ?? ''}`);
  test.skip(vigil.kind !== 'served', 'the agent reaches the vigil serve of this test');
  await writePolicy(vigil.home, [
    { effect: 'deny', tool: 'terminal', command: 'npm publish', reason: 'no publishing from tests' },
    { effect: 'ask', tool: 'terminal', command: 'touch', reason: 'the test asks about every touch' },
  ]);
  agent = await realAgent('codex', { vigilHome: vigil.home, project: vigil.workspace }, [overMcp]);
});

test.afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

/**
 * `codex exec PROMPT`. `required` makes Codex wait for Vigil's server before its first request (an
 * optional server still starting is left out of it); Codex's own approval of Vigil's tools is
 * lifted, so that Vigil's decides, as --allowedTools does for Claude Code.
 */
function exec(prompt: string): string[] {
  return [
    'exec',
    '--skip-git-repo-check',
    '-c',
    'mcp_servers.vigil.required=true',
    '-c',
    'mcp_servers.vigil.default_tools_approval_mode="approve"',
    prompt,
  ];
}

for (const transport of ['stdio', 'http'] as const) {
  test(`MCP over ${transport}: Vigil refuses what it denies; its terminal tool asks, the person approves in the UI, the command runs after a checkpoint`, async ({
    page,
    vigil,
  }) => {
    if (agent === undefined) return;
    await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
    const connected = await agent.vigil(['connect', 'codex', ...(transport === 'http' ? ['--http'] : []), '--write']);
    expect(connected).toContain('Wrote');
    const file = await readFile(path.join(agent.home, '.codex', 'config.toml'), 'utf8');
    expect(file).toContain('[model_providers.vigil-scripted]');
    const token = transport === 'http' ? (await agent.vigil(['connect', '--credential', 'codex'])).trim() : '';
    if (transport === 'http') expect(file).not.toContain(token);

    const running = agent.run(exec(`${scenarioMarker('cx-mcp')} Publish, then touch a file through Vigil`), {
      env: transport === 'http' ? { VIGIL_AGENT_TOKEN: token } : {},
    });
    await page.keyboard.press('Alt+4');
    const card = page.getByTestId('approval-card').filter({ hasText: 'touch from-codex.txt' });
    await expect(card).toBeVisible({ timeout: 60_000 });
    await expect(card).toContainText('the test asks about every touch');
    await card.getByTestId('approve').click();
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Touched.');
    const [publish, touch] = agent.model.results('cx-mcp');
    expect(publish).toMatchObject({ id: 'call_vigil_t0_0' });
    // Codex passes the text of a tool's result on, not its isError flag.
    expect(publish?.text).toContain('terminal was not run: Refused by no publishing from tests');
    expect(touch).toMatchObject({ id: 'call_vigil_t1_0' });
    expect(touch?.text).toContain('"exit_code":0');
    expect(await exists(path.join(vigil.workspace, 'from-codex.txt'))).toBe(true);
    const checkpoints = await checkpointsOf(agent, vigil.workspace);
    expect(checkpoints.map((checkpoint) => checkpoint.reason)).toContain('before terminal: touch from-codex.txt');
  });
}

import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { scenarioMarker, type Scenario } from '../electron/test-support/scripted-model/index';
import { checkpointsOf, realAgent, whyCannotRun, writePolicy, type RealAgent } from './fixtures/real-agents';
import { expect, test } from './fixtures/vigil-fixture';

/**
 * The real Gemini CLI using Vigil's MCP tools, configured by `vigil connect gemini-cli [--http]
 * --write` (`mcpServers.vigil` in the project's `.gemini/settings.json`), over stdio (it starts
 * `vigil mcp`) and over HTTP (the credential read from $VIGIL_AGENT_TOKEN, which the file refers
 * to); the approval Vigil asks for is decided in the UI.
 */

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

const overMcp: Scenario = {
  name: 'gm-mcp',
  turns: [
    [{ kind: 'tool', name: 'mcp_vigil_terminal', input: { command: 'touch from-mcp.txt' } }],
    [{ kind: 'text', text: 'Touched.' }],
  ],
};

let agent: RealAgent | undefined;

test.beforeEach(async ({ vigil }) => {
  const why = await whyCannotRun('gemini');
  test.skip(why !== undefined, `Gemini CLI cannot run here: ${why ?? ''}`);
  test.skip(vigil.kind !== 'served', 'the agent reaches the vigil serve of this test');
  await writePolicy(vigil.home, [
    { effect: 'ask', tool: 'terminal', command: 'touch', reason: 'the test asks about every touch' },
  ]);
  agent = await realAgent('gemini', { vigilHome: vigil.home, project: vigil.workspace }, [overMcp]);
});

test.afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

for (const transport of ['stdio', 'http'] as const) {
  test(`MCP over ${transport}: Vigil's terminal tool asks, the person approves in the UI, the command runs after a checkpoint`, async ({
    page,
    vigil,
  }) => {
    if (agent === undefined) return;
    await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
    const connected = await agent.vigil([
      'connect',
      'gemini-cli',
      ...(transport === 'http' ? ['--http'] : []),
      '--write',
    ]);
    expect(connected).toContain('Wrote');
    const file = await readFile(path.join(vigil.workspace, '.gemini', 'settings.json'), 'utf8');
    expect(JSON.parse(file)).toHaveProperty(['mcpServers', 'vigil']);
    const token = transport === 'http' ? (await agent.vigil(['connect', '--credential', 'gemini-cli'])).trim() : '';
    if (transport === 'http') expect(file).not.toContain(token);

    // Gemini CLI's own confirmation is lifted for Vigil's tool only: Vigil's approval is the one that decides.
    const running = agent.run(
      ['-p', `${scenarioMarker('gm-mcp')} Touch a file through Vigil`, '--allowed-tools', 'mcp_vigil_terminal'],
      { env: transport === 'http' ? { VIGIL_AGENT_TOKEN: token } : {} },
    );
    await page.keyboard.press('Alt+4');
    const card = page.getByTestId('approval-card').filter({ hasText: 'touch from-mcp.txt' });
    await expect(card).toBeVisible({ timeout: 60_000 });
    await expect(card).toContainText('the test asks about every touch');
    await card.getByTestId('approve').click();
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Touched.');
    expect(agent.model.results('gm-mcp')).toEqual([expect.objectContaining({ id: 'vigil_t0_0', isError: false })]);
    expect(await exists(path.join(vigil.workspace, 'from-mcp.txt'))).toBe(true);
    const checkpoints = await checkpointsOf(agent, vigil.workspace);
    expect(checkpoints.map((checkpoint) => checkpoint.reason)).toContain('before terminal: touch from-mcp.txt');
  });
}

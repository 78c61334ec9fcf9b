import { connectAgent, runCli } from './fixtures/agents';
import { expect, test } from './fixtures/vigil-fixture';

/** The lane class (`lane-0` … `lane-7`) a card's colour comes from. */
function laneOf(className: string | null): string | undefined {
  return className?.split(/\s+/).find((name) => /^lane-\d+$/.test(name));
}

test('eight live sessions get eight colours, and sessions of one agent are numbered in order of start, in the UI and the CLI', async ({
  page,
  vigil,
}) => {
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const agent = await connectAgent(vigil.home, 'identity');
  try {
    // Four of one agent, then four others: with colours from ids alone, eight sessions share a
    // colour far more often than not; assigned colours never do.
    const names = [
      'claude-code',
      'claude-code',
      'claude-code',
      'claude-code',
      'gemini-cli',
      'gemini-cli',
      'hermes',
      'codex',
    ];
    const sessions = [];
    for (const name of names) sessions.push(await agent.openSession({ agent: name, roots: [vigil.workspace] }));

    const cards = page.getByTestId('sessions-live').getByTestId('session-card');
    await expect(cards).toHaveCount(8);
    const lanes = await cards.evaluateAll((elements) =>
      // The e2e code compiles without DOM types: an element is described by what is read of it.
      elements.map((element) => (element as unknown as { readonly className: string }).className),
    );
    expect(new Set(lanes.map(laneOf)).size, lanes.join('\n')).toBe(8);

    for (const [index, session] of sessions.slice(0, 4).entries())
      await expect(
        page.locator(`[data-testid="session-card"][data-session-id="${session.id}"] [data-testid="session-agent"]`),
      ).toHaveText(`claude-code #${index + 1}`);
    await expect(
      page.locator(
        `[data-testid="session-card"][data-session-id="${sessions[6]?.id ?? ''}"] [data-testid="session-agent"]`,
      ),
    ).toHaveText('hermes');

    // The CLI names them the same way.
    const { stdout } = await runCli(vigil.home, ['sessions', 'list']);
    for (const [index, session] of sessions.slice(0, 4).entries())
      expect(stdout).toMatch(new RegExp(`${session.id}\\s+claude-code #${index + 1}\\s`));

    // A session that ends frees its number: the next claude-code takes #2 again, and its card says so.
    await sessions[1]?.close();
    const next = await agent.openSession({ agent: 'claude-code', roots: [vigil.workspace] });
    await expect(
      page.locator(`[data-testid="session-card"][data-session-id="${next.id}"] [data-testid="session-agent"]`),
    ).toHaveText('claude-code #2');
  } finally {
    await agent.close();
  }
});

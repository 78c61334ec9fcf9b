import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentBinaries, runAgent, whyAgentCannotRun } from '../../test-support/real-agents/index';
import { runVigil } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
const whyNot = await whyAgentCannotRun(agentBinaries.codex);

beforeEach(async () => {
  temp = await makeTempDir('vigil-connect-codex-');
  await mkdir(path.join(temp.dir, 'home', '.codex'), { recursive: true });
  await mkdir(path.join(temp.dir, 'project'));
});

afterEach(async () => temp.remove());

/** What Codex's own configuration parser makes of the "vigil" server (`codex mcp get vigil --json`). */
async function codexSees(): Promise<{ transport: Record<string, unknown> }> {
  const run = await runAgent(agentBinaries.codex, ['mcp', 'get', 'vigil', '--json'], {
    cwd: path.join(temp.dir, 'project'),
    env: { HOME: path.join(temp.dir, 'home') },
  });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { transport: Record<string, unknown> };
}

function connect(args: readonly string[]) {
  return runVigil(['connect', 'codex', ...args], {
    cwd: path.join(temp.dir, 'project'),
    env: { HOME: path.join(temp.dir, 'home'), VIGIL_HOME: path.join(temp.dir, 'vigil'), CODEX_HOME: '' },
  });
}

describe.skipIf(whyNot !== undefined)(
  `vigil connect codex, read back by Codex CLI itself${whyNot === undefined ? '' : ` (skipped: ${whyNot})`}`,
  () => {
    it("--write puts [mcp_servers.vigil] into ~/.codex/config.toml beside the user's own tables; --http replaces it, the token read from VIGIL_AGENT_TOKEN", async () => {
      const file = path.join(temp.dir, 'home', '.codex', 'config.toml');
      const own = 'model = "o3"\n\n[mcp_servers.other]\ncommand = "x"\n\n[profiles.p]\nmodel = "y"\n';
      await writeFile(file, own);
      const stdio = await connect(['--write']);
      expect(stdio.code, stdio.stderr).toBe(0);
      expect(await readFile(file, 'utf8')).toContain(own);
      expect(await codexSees()).toMatchObject({
        transport: { type: 'stdio', command: process.execPath, env: { VIGIL_HOME: path.join(temp.dir, 'vigil') } },
      });
      const again = await connect(['--write']);
      expect(again.stdout).toContain('already holds this entry');

      const http = await connect(['--http', '--write']);
      expect(http.code, http.stderr).toBe(0);
      const text = await readFile(file, 'utf8');
      expect(text.startsWith(own)).toBe(true);
      expect(text).not.toMatch(/vigil_agent_/);
      expect(text.match(/\[mcp_servers\.vigil\]/g)).toHaveLength(1);
      expect(await codexSees()).toMatchObject({
        transport: {
          type: 'streamable_http',
          url: `http://127.0.0.1:7420/mcp?cwd=${path.join(temp.dir, 'project')}`,
          bearer_token_env_var: 'VIGIL_AGENT_TOKEN',
        },
      });
    });
  },
);

import { vigilPaths } from '../lib/vigil-home';
import { AgentCredentialStore } from '../server/agent-credentials';

/**
 * The one way tests get an agent credential: issued (or found) in the data folder `home` under
 * `name`, exactly as `vigil connect` stores it. It reaches /mcp and /agent only.
 */
export async function agentCredentialFor(home: string, name = 'test-agent'): Promise<string> {
  return (await new AgentCredentialStore(vigilPaths(home).agentCredentials).issue(name)).secret;
}

/**
 * Runs one long terminal command through a real executor, to be SIGKILLed by a test while it runs
 * (`node --import tsx executor-crash-child.ts BASE`). Prints `session ID` once the session is open.
 */
import path from 'node:path';
import { loadCheckpointService } from '../../checkpoints';
import { EventHub } from '../../lib/event-hub';
import { vigilPaths } from '../../lib/vigil-home';
import { silentLogger } from '../../logging/logger';
import { createAgentServices } from '../create-agent-services';

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();

const [base] = process.argv.slice(2);
if (base === undefined) throw new Error('usage: executor-crash-child.ts BASE');
const paths = vigilPaths(path.join(base, 'vigil'));
const checkpoints = new CheckpointEngine({ root: paths.checkpoints, logger: silentLogger });
const services = await createAgentServices({
  paths,
  logger: silentLogger,
  events: new EventHub(),
  home: path.join(base, 'home'),
  checkpoints,
});
const session = await services.sessions.open({ agent: 'doomed', roots: [path.join(base, 'ws')] });
process.stdout.write(`session ${session.id}\n`);
await services.executor.execute(
  session.id,
  [{ callId: 'long', name: 'terminal', arguments: { command: 'rm -f a.txt; echo started; sleep 600' } }],
  { concurrent: false },
);

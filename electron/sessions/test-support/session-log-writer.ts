/**
 * A session log writer to be killed with SIGKILL by a test (`node --import tsx session-log-writer.ts HOME`):
 * it opens a session, then appends records as fast as it can, printing `ack N` after message N is
 * durable, and `big` before each 32 MB record, so the test can watch the file grow and kill it mid-write.
 */
import path from 'node:path';
import { silentLogger } from '../../logging/logger';
import { SessionRegistry } from '../session-registry';

const [home] = process.argv.slice(2);
if (home === undefined) throw new Error('usage: session-log-writer.ts HOME');
const registry = new SessionRegistry({
  directory: path.join(home, 'sessions'),
  logger: silentLogger,
  events: { emit: () => undefined },
});
await registry.load();
const session = await registry.open({ agent: 'crash-writer', roots: [home] });
process.stdout.write(`opened ${session.id}\n`);
const bigArguments = Object.fromEntries(
  Array.from({ length: 128 }, (_, index) => [`field${index}`, 'x'.repeat(256 * 1024)]),
);
for (let index = 1; ; index += 1) {
  await registry.appendMessage(session.id, { role: 'assistant', text: `message ${index}` });
  process.stdout.write(`ack ${index}\n`);
  if (index % 5 === 0) {
    const turn = await registry.ensureTurn(session.id);
    const seq = registry.nextSeq(session.id);
    process.stdout.write('big\n');
    await registry.record(session.id, [
      {
        type: 'call',
        at: new Date().toISOString(),
        turn,
        seq,
        callId: `c${seq}`,
        name: 'write_file',
        arguments: bigArguments,
        decision: 'allowed',
        checkpoints: [],
        checkpointProblems: [],
        touched: [],
      },
    ]);
  }
}

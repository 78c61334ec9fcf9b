import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../electron/logging';
import { loadMemoryService, memoryDirectoryId } from '../electron/memory';

const { createMemoryService } = await loadMemoryService();

/**
 * One contending writer for bench/memory.bench.ts: builds a memory service over DIR, prints
 * "ready", waits for "go" on stdin, makes COUNT mutations (an add, then the removal of that entry,
 * and so on), and prints `{"ms": …}`. Usage: memory-contention-worker.ts DIR ID COUNT
 */
const [dir, id, countText] = process.argv.slice(2);
if (dir === undefined || id === undefined) throw new Error('usage: memory-contention-worker.ts DIR ID COUNT');
const count = Number(countText ?? '100');
const memory = await createMemoryService({
  directories: [
    {
      id: memoryDirectoryId(dir),
      path: dir,
      label: 'bench',
      source: 'config',
      limits: { memory: 100_000, user: 100_000 },
    },
  ],
  logger: silentLogger,
  lockTimeoutMs: 120_000,
});
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
const start = performance.now();
for (let call = 0; call < count; call += 1) {
  const token = `<bench-${id}-${Math.floor(call / 2)}>`;
  if (call % 2 === 0)
    await memory.mutate(dir, 'memory', {
      action: 'add',
      content: `${token} a fact worth remembering, written by bench worker ${id}`,
    });
  else await memory.mutate(dir, 'memory', { action: 'remove', oldText: token });
}
const ms = performance.now() - start;
await memory.dispose();
process.stdout.write(`${JSON.stringify({ ms })}\n`);
lines.close();

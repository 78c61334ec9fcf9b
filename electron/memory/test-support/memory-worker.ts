import { isAppError } from '../../../shared/errors';
import { memoryServiceFor } from './memory-fixtures';

/**
 * A child process that makes `count` random add/replace/remove calls on MEMORY.md of `dir`,
 * each on its own entries (tagged `<W<id>-E<n>>`), and prints one JSON line per call: what it
 * asked, and whether it was acknowledged. Usage: memory-worker.ts DIR ID COUNT SEED LIMIT
 */
const [dir, id, countText, seedText, limitText] = process.argv.slice(2);
if (dir === undefined || id === undefined) throw new Error('usage: memory-worker.ts DIR ID COUNT SEED LIMIT');
const count = Number(countText ?? '200');
const limit = Number(limitText ?? '2200');
let seed = Number(seedText ?? '1');
const random = (): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

const memory = await memoryServiceFor(dir, { limits: { memory: limit, user: limit }, lockTimeoutMs: 60_000 });
const present = new Map<string, string>();
let next = 0;
for (let call = 0; call < count; call += 1) {
  const tokens = [...present.keys()];
  const roll = random();
  const token = tokens[Math.floor(random() * tokens.length)];
  const version = `v${call}`;
  const request =
    token === undefined || roll < 0.45
      ? { action: 'add' as const, token: `<W${id}-E${(next += 1)}>`, text: '' }
      : roll < 0.75
        ? { action: 'replace' as const, token, text: `${token} ${version} replaced by worker ${id}` }
        : { action: 'remove' as const, token, text: '' };
  const text = request.action === 'add' ? `${request.token} added by worker ${id} in call ${call}` : request.text;
  try {
    const result =
      request.action === 'add'
        ? await memory.mutate(dir, 'memory', { action: 'add', content: text })
        : request.action === 'replace'
          ? await memory.mutate(dir, 'memory', { action: 'replace', oldText: request.token, content: text })
          : await memory.mutate(dir, 'memory', { action: 'remove', oldText: request.token });
    if (request.action === 'remove') present.delete(request.token);
    else present.set(request.token, text);
    process.stdout.write(
      `${JSON.stringify({ call, action: request.action, token: request.token, text, isAcknowledged: true, preserved: result.preserved })}\n`,
    );
  } catch (error) {
    if (!isAppError(error)) throw error;
    process.stdout.write(
      `${JSON.stringify({ call, action: request.action, token: request.token, text, isAcknowledged: false, code: error.code, message: error.message })}\n`,
    );
  }
}
await memory.dispose();

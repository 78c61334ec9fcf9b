import { writeFileAtomic } from '../atomic-write';

/**
 * A child process for the crash test: it rewrites TARGET forever, alternating between two versions
 * (SIZE_A bytes of "a" and SIZE_B bytes of "b"), streaming each in 64 KiB chunks and yielding to
 * the event loop between chunks so that a SIGKILL usually lands in the middle of a write. It prints
 * "writing" once its first write has started.
 */
const [target, sizeA, sizeB] = process.argv.slice(2);
if (target === undefined || sizeA === undefined || sizeB === undefined)
  throw new Error('usage: crash-writer TARGET SIZE_A SIZE_B');

const chunkSize = 64 * 1024;
let announced = false;

async function* version(byte: number, size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < size; offset += chunkSize) {
    await new Promise((resolve) => setImmediate(resolve));
    yield new Uint8Array(Math.min(chunkSize, size - offset)).fill(byte);
    if (!announced) {
      announced = true;
      process.stdout.write('writing\n');
    }
  }
}

for (let round = 0; ; round += 1) {
  await writeFileAtomic(target, round % 2 === 0 ? version(0x62, Number(sizeB)) : version(0x61, Number(sizeA)));
}

import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** This process's children running socat as the sandbox engine's host-side bridge. */
export function engineBridges(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/u.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('UNIX-LISTEN:');
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Waits (up to 30 s) until `condition` holds, looking every 50 ms; fails the test if it never does. */
export async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 600 && !condition(); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(condition()).toBe(true);
}

import { lstat, mkdir, rename, symlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A child process for the symlink-race test, standing in for a hostile program beside an agent:
 * every 2 ms it swaps WORKSPACE/sub between the real folder and a symlink to OUTSIDE (both moves
 * are renames inside the workspace). It prints "swapping" after its first swap; on SIGTERM it
 * stops with the real folder back in place and prints "swaps N strays M". A folder a writer
 * created at `sub` in the instant it was missing is moved aside as `.stray-N` (kept, inside).
 */
const [workspaceArgument, outsideArgument] = process.argv.slice(2);
if (workspaceArgument === undefined || outsideArgument === undefined)
  throw new Error('usage: link-swapper WORKSPACE OUTSIDE');
const workspace: string = workspaceArgument;
const outside: string = outsideArgument;

const sub = path.join(workspace, 'sub');
const parkedFolder = path.join(workspace, '.sub-folder');
const parkedLink = path.join(workspace, '.sub-link');
const state = { isStopping: false };
let swaps = 0;
let strays = 0;

/** Moves `from` to `sub`; a folder that appeared at `sub` meanwhile is moved aside first. */
async function moveIntoPlace(from: string): Promise<void> {
  for (;;) {
    try {
      await rename(from, sub);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EISDIR' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
      strays += 1;
      await rename(sub, path.join(workspace, `.stray-${strays}`));
    }
  }
}

/** Puts the link at `sub` (the folder parked), or the folder back (the link parked). */
async function swap(toLink: boolean): Promise<void> {
  if (toLink) {
    await rename(sub, parkedFolder);
    await moveIntoPlace(parkedLink);
  } else {
    await rename(sub, parkedLink);
    await moveIntoPlace(parkedFolder);
  }
  swaps += 1;
}

process.on('SIGTERM', () => {
  state.isStopping = true;
});

await mkdir(sub, { recursive: true });
await symlink(outside, parkedLink);
for (let toLink = true; ; toLink = !toLink) {
  if (state.isStopping && toLink) break;
  await swap(toLink);
  if (swaps === 1) process.stdout.write('swapping\n');
  await sleep(2);
}
const isFolderBack = (await lstat(sub)).isDirectory();
process.stdout.write(`swaps ${swaps} strays ${strays} folder ${isFolderBack ? 'back' : 'missing'}\n`);

import { lstat, mkdir, rename, symlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A child process for the symlink-race test, standing in for a hostile program beside an agent:
 * every 2 ms it swaps WORKSPACE/sub between the real folder and a symlink to OUTSIDE (both moves
 * are renames inside the workspace). It prints "swapping" after its first swap; on SIGTERM it
 * stops with the real folder back in place and prints "swaps N strays M". A folder a writer
 * created at `sub` in the instant it was missing is moved aside as `.stray-N` (kept, inside).
 * With PARKING (a folder on the same file system, outside the workspace), the folder and the link
 * wait there instead, so the workspace only ever holds `sub` as the folder, the link, or nothing.
 */
const [workspaceArgument, outsideArgument, parkingArgument] = process.argv.slice(2);
if (workspaceArgument === undefined || outsideArgument === undefined)
  throw new Error('usage: link-swapper WORKSPACE OUTSIDE [PARKING]');
const workspace: string = workspaceArgument;
const outside: string = outsideArgument;
const parking: string = parkingArgument ?? workspace;

const sub = path.join(workspace, 'sub');
const parkedFolder = path.join(parking, '.sub-folder');
const parkedLink = path.join(parking, '.sub-link');
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

/**
 * Takes the link out of `sub` to park it. A writer may have deleted the link (a restore removing a
 * symlink made since its checkpoint) or put a folder of its own there: that folder is moved aside
 * as a stray, and a fresh link is parked.
 */
async function parkLink(): Promise<void> {
  const found = await lstat(sub).catch(() => undefined);
  if (found?.isSymbolicLink() === true) {
    try {
      await rename(sub, parkedLink);
      return;
    } catch (error) {
      // The writer removed the link between the lstat and the rename: park a fresh one.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  if (found !== undefined && !found.isSymbolicLink()) {
    strays += 1;
    await rename(sub, path.join(workspace, `.stray-${strays}`));
  }
  await symlink(outside, parkedLink);
}

/** Puts the link at `sub` (the folder parked), or the folder back (the link parked). */
async function swap(toLink: boolean): Promise<void> {
  if (toLink) {
    await rename(sub, parkedFolder);
    await moveIntoPlace(parkedLink);
  } else {
    await parkLink();
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

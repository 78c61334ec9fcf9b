import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAppError } from '../../../shared/errors';
import { isVigilTempFile } from '../../files/vigil-temp-name';
import { silentLogger } from '../../logging/logger';
import { repoRoot } from '../../test-support/run-vigil';
import { seededRandom } from '../../test-support/seeded-random';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor } from '../restore/restore-service';
import { writeFiles } from './restore-fixtures';

const swapper = path.join(repoRoot, 'electron/files/test-support/link-swapper.ts');

/** What one trial found: every broken promise, named. */
export interface RaceTrial {
  readonly seed: number;
  readonly violations: readonly string[];
  readonly swaps: number;
  readonly incomplete: number;
  /** The error code when the restore refused as a whole ('' when it ran). */
  readonly refusal: string;
}

/** Every file under `folder` (relative, `/`-separated) with its content; symlinks are not followed. */
function filesUnder(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(folder)) return files;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    const relative = path.relative(folder, absolute).split(path.sep).join('/');
    files.set(relative, entry.isFile() ? readFileSync(absolute, 'utf8') : `<${lstatSync(absolute).mode.toString(8)}>`);
  }
  return files;
}

/** Starts the swapper (parking outside the workspace) and resolves once it swapped for the first time. */
async function startSwapper(workspace: string, outside: string, parking: string): Promise<() => Promise<number>> {
  const child = spawn(process.execPath, ['--import', 'tsx', swapper, workspace, outside, parking], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('swapping')) resolve();
    });
    void exited.then(() => reject(new Error(`the swapper exited early: ${stderr}`)));
  });
  return async () => {
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`the swapper failed (${String(code)}): ${stderr}`);
    return Number(/swaps (\d+)/.exec(stdout)?.[1] ?? 0);
  };
}

/** The trial's files: the checkpoint's, what the workspace holds at restore time, and what lies outside. */
function layOut(
  seed: number,
  workspace: string,
  outside: string,
): { target: Map<string, string>; before: Map<string, string> } {
  const random = seededRandom(seed);
  const target = new Map<string, string>([['top.txt', 'top, checkpoint\n']]);
  for (let index = 0; index < 48; index += 1)
    target.set(`sub/${index % 3 === 0 ? 'deep/' : ''}f${index}.txt`, `checkpoint ${index}\n`);
  const outsideFiles: Record<string, string> = {};
  for (const name of target.keys()) if (name.startsWith('sub/')) outsideFiles[name.slice(4)] = `OUTSIDE ${name}\n`;
  writeFiles(outside, outsideFiles);
  writeFiles(workspace, Object.fromEntries(target));
  const before = new Map(target);
  for (const name of target.keys()) {
    const roll = random();
    if (roll < 0.45) before.set(name, `edited ${name} ${seed}\n`);
    else if (roll < 0.6) before.delete(name);
  }
  for (let index = 0; index < 12; index += 1)
    before.set(`sub/${index % 2 === 0 ? 'deep/' : ''}new${index}.txt`, `created ${index} ${seed}\n`);
  return { target, before };
}

/** Applies the "since the checkpoint" changes to the workspace. */
function mutate(workspace: string, target: ReadonlyMap<string, string>, before: ReadonlyMap<string, string>): void {
  for (const name of target.keys()) if (!before.has(name)) rmSync(path.join(workspace, name));
  for (const [name, content] of before) writeFileSync(path.join(workspace, name), content);
}

/** The promises of a restore racing a symlink swap, checked once everything is still. */
function check(
  outcome: {
    outcomes: readonly { path: string; result: string; action: string; message?: string }[];
    incomplete: number;
  },
  files: { target: ReadonlyMap<string, string>; before: ReadonlyMap<string, string> },
  places: { workspace: string; outside: string; parking: string; outsideBefore: ReadonlyMap<string, string> },
): string[] {
  const violations: string[] = [];
  const outsideNow = filesUnder(places.outside);
  for (const [name, content] of outsideNow)
    if (places.outsideBefore.get(name) !== content) violations.push(`outside: ${name} was written or created`);
  for (const name of places.outsideBefore.keys())
    if (!outsideNow.has(name)) violations.push(`outside: ${name} was deleted`);
  for (const name of filesUnder(places.parking).keys())
    if (isVigilTempFile(path.basename(name))) violations.push(`outside: temp file ${name} left in the parking folder`);
  const inside = filesUnder(places.workspace);
  for (const name of inside.keys())
    if (isVigilTempFile(path.basename(name))) violations.push(`workspace: temp file ${name} left behind`);
  const strays = [...inside].filter(([name]) => name.startsWith('.stray-'));
  const results = new Map(outcome.outcomes.map((entry) => [entry.path, entry]));
  for (const name of new Set([...files.target.keys(), ...files.before.keys()])) {
    const now = inside.get(name);
    const old = files.before.get(name);
    const wanted = files.target.get(name);
    const result = results.get(name);
    const isDone = result?.result === 'done';
    // A delete the restore made in a folder that was then moved away is reported failed (not known to be
    // durable where it belongs): gone, as asked, and its content is in the restore's undo point.
    const isUnconfirmed = result?.result === 'failed' && (result.message ?? '').includes('moved away or removed');
    if (old !== undefined && now === undefined && !((isDone || isUnconfirmed) && wanted === undefined))
      violations.push(
        `lost: ${name} (${old.trim()}) is gone, and the restore did not report deleting it (${result === undefined ? 'not reported' : `${result.result}: ${result.message ?? ''}`})`,
      );
    if (now !== undefined && now !== old && now !== wanted) violations.push(`torn: ${name} holds "${now.trim()}"`);
    if (result === undefined && now !== old) violations.push(`${name} changed but the restore did not report it`);
    // Left means as it was; or, when the folder was moved right after the rename (or while the write was read
    // back), the checkpoint's version in the workspace's own folder, reported as unconfirmed. Never anything else.
    if (result !== undefined && !isDone && now !== old && now !== wanted)
      violations.push(`${name} was reported ${result.result} but holds neither version (${result.message ?? ''})`);
    const isElsewhere = strays.some(([stray, content]) => stray.endsWith(`/${name.slice(4)}`) && content === wanted);
    if (isDone && wanted !== undefined && now !== wanted && !isElsewhere)
      violations.push(`${name} was reported restored but holds "${now?.trim() ?? 'nothing'}"`);
  }
  const notDone = outcome.outcomes.filter((entry) => entry.result === 'conflict' || entry.result === 'failed');
  if (notDone.length > 0 && outcome.incomplete === 0)
    violations.push('files were left but the restore was not incomplete');
  return violations;
}

/**
 * One seeded trial: a checkpointed workspace whose `sub` folder is then edited, thinned and grown,
 * restored while a hostile program swaps `sub` for a symlink to an outside folder every 2 ms.
 */
export async function runRaceTrial(base: string, seed: number): Promise<RaceTrial> {
  const workspace = path.join(base, `ws-${seed}`);
  const outside = path.join(base, `outside-${seed}`);
  const parking = path.join(base, `parking-${seed}`);
  mkdirSync(parking, { recursive: true });
  const root = path.join(base, `home-${seed}`, 'checkpoints');
  const files = layOut(seed, workspace, outside);
  const outsideBefore = filesUnder(outside);
  const engine = new CheckpointService({ root, logger: silentLogger });
  try {
    const taken = await engine.checkpoint(workspace, { reason: 'before write_file' });
    if (taken.kind !== 'created') throw new Error('the trial could not take its checkpoint');
    mutate(workspace, files.target, files.before);
    const stop = await startSwapper(workspace, outside, parking);
    let swaps = 0;
    let result: Parameters<typeof check>[0] = { outcomes: [], incomplete: 0 };
    let refusal = '';
    try {
      await sleep(Math.floor(seededRandom(seed ^ 0x5bd1e995)() * 6));
      result = await restoreServiceFor(engine, root, silentLogger).restore(workspace, taken.checkpoint.id);
    } catch (error) {
      // A refused restore is allowed (it must then have changed nothing); a bug is not.
      if (!isAppError(error)) throw error;
      refusal = `${error.code}: ${error.message}`;
    } finally {
      swaps = await stop();
    }
    const violations = check(result, files, { workspace, outside, parking, outsideBefore });
    return { seed, violations, swaps, incomplete: result.incomplete, refusal };
  } finally {
    await engine.dispose();
  }
}

import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../logging/logger';
import { seededRandom } from '../../test-support/seeded-random';
import { CheckpointService } from '../checkpoint-service';
import { bundleChild } from './crash-kill';
import { acknowledged, checkAfterCrash, crashStates, type CrashOperation } from './crash-states';
import { ModelFs } from './power-cut-model';
import { parseTrace, traceRun, type TracedCall } from './power-cut-trace';
import { writeFiles } from './restore-fixtures';

/** What the power-cut check of one operation found. */
export interface PowerCutReport {
  readonly operation: CrashOperation;
  /** File-system calls recorded in the operation's scope. */
  readonly calls: number;
  readonly fsyncs: number;
  readonly prefixes: number;
  /** Distinct crash states materialised and checked. */
  readonly states: number;
  readonly failed: number;
  readonly failures: readonly string[];
}

/** Which durability rule covers a call: its file's data, or its folder's entries. */
interface Durability {
  readonly kind: 'data' | 'entry' | 'none';
  /** The inodes whose fsync makes the call durable (its file, or the folder(s) whose entries it changed). */
  readonly inodes: readonly number[];
}

/** The project and store before the traced run; the head and (for a restore) the checkpoint restored to. */
async function prepare(operation: CrashOperation, root: string, dir: string): Promise<{ head: string; base: string }> {
  mkdirSync(dir, { recursive: true });
  const { a, b } = crashStates[operation].files();
  writeFiles(dir, a);
  const service = new CheckpointService({ root, logger: silentLogger, retention: { maxSnapshots: 50 } });
  try {
    const first = await service.checkpoint(dir, { reason: 'before write_file' });
    if (first.kind !== 'created') throw new Error('no first checkpoint');
    if (operation !== 'restore') return { head: first.checkpoint.id, base: first.checkpoint.id };
    await service.pin(dir, first.checkpoint.id, true);
    writeFiles(dir, b);
    for (const name of Object.keys(a)) if (b[name] === undefined) rmSync(path.join(dir, name));
    const second = await service.checkpoint(dir, { reason: 'before write_file' });
    if (second.kind !== 'created') throw new Error('no B checkpoint');
    return { head: second.checkpoint.id, base: first.checkpoint.id };
  } finally {
    await service.dispose();
  }
}

/**
 * Replays the whole trace once on the model: the offset each write landed at (the descriptor's
 * position, which no crash changes) and what makes each call durable.
 */
function annotate(initial: ModelFs, calls: readonly TracedCall[]): { offsets: number[]; durability: Durability[] } {
  const model = initial.clone();
  const positions = new Map<number, { offset: number; append: boolean; path: string }>();
  const offsets: number[] = [];
  const durability: Durability[] = [];
  for (const call of calls) {
    let offset = 0;
    let rule: Durability = { kind: 'none', inodes: [] };
    const parent = (name: string): number => model.inodeAt(path.dirname(name)) ?? -1;
    switch (call.kind) {
      case 'create':
      case 'open':
        positions.set(call.fd, { offset: 0, append: call.append, path: call.path });
        if (call.kind === 'create' && model.inodeAt(call.path) === undefined)
          rule = { kind: 'entry', inodes: [parent(call.path)] };
        else if (call.truncate) rule = { kind: 'data', inodes: [model.inodeAt(call.path) ?? -1] };
        break;
      case 'seek':
        positions.set(call.fd, {
          ...(positions.get(call.fd) ?? { append: false, path: call.path }),
          offset: call.offset,
        });
        break;
      case 'write': {
        const position = positions.get(call.fd);
        offset = call.offset ?? (position?.append === true ? model.sizeOf(call.path) : (position?.offset ?? 0));
        if (call.offset === undefined && position !== undefined) position.offset = offset + call.data.length;
        rule = { kind: 'data', inodes: [model.inodeAt(call.path) ?? -1] };
        break;
      }
      case 'truncate':
        rule = { kind: 'data', inodes: [model.inodeAt(call.path) ?? -1] };
        break;
      case 'mkdir':
      case 'rmdir':
      case 'unlink':
      case 'symlink':
      case 'link':
        rule = { kind: 'entry', inodes: [parent(call.path)] };
        break;
      case 'rename':
        rule = { kind: 'entry', inodes: [...new Set([parent(call.from), parent(call.path)])] };
        break;
      case 'fsync':
        rule = { kind: 'none', inodes: [model.inodeAt(call.path) ?? -1] };
        break;
      default:
        break;
    }
    offsets.push(offset);
    durability.push(rule);
    model.apply(call, offset);
  }
  return { offsets, durability };
}

/** For each call, the index of the first fsync after it that makes it durable (Infinity: none). */
function durableFrom(calls: readonly TracedCall[], durability: readonly Durability[]): number[] {
  const fsyncsOf = new Map<number, number[]>();
  calls.forEach((call, index) => {
    if (call.kind !== 'fsync') return;
    for (const inode of durability[index]?.inodes ?? []) fsyncsOf.set(inode, [...(fsyncsOf.get(inode) ?? []), index]);
  });
  return durability.map((rule, index) => {
    if (rule.kind === 'none') return -1;
    let from = -1;
    for (const inode of rule.inodes) {
      const next = (fsyncsOf.get(inode) ?? []).find((at) => at > index);
      from = Math.max(from, next ?? Infinity);
    }
    return from;
  });
}

/** A crash state to check: the calls before `prefix`, less the ones `dropped` (their effect never reached the disk). */
interface CrashState {
  readonly prefix: number;
  readonly variant: string;
  readonly dropped: ReadonlySet<number>;
}

/** The cut points: after every fsync, rename and acknowledgement, and a seeded sample of the others; at most `max`. */
function cutPoints(calls: readonly TracedCall[], max: number, random: () => number): number[] {
  const marked = new Set<number>([0, calls.length]);
  const others: number[] = [];
  calls.forEach((call, index) => {
    if (call.kind === 'fsync' || call.kind === 'rename' || call.kind === 'stdout') marked.add(index + 1);
    else if (call.kind !== 'seek') others.push(index + 1);
  });
  const points = [...marked];
  while (points.length < max && others.length > 0)
    points.push(...others.splice(Math.floor(random() * others.length), 1));
  while (points.length > max) points.splice(1 + Math.floor(random() * (points.length - 2)), 1);
  return [...new Set(points)].sort((a, b) => a - b);
}

/**
 * The states a power cut at `prefix` may leave, by the rules modelled (see docs/reliability.md):
 * everything issued; un-fsynced file data lost; un-fsynced folder entries (creates, renames,
 * unlinks, mkdirs) undone; both; and each of `omit` un-fsynced calls lost alone (reordering).
 */
function statesAt(
  prefix: number,
  durability: readonly Durability[],
  durable: readonly number[],
  omit: number,
  random: () => number,
): CrashState[] {
  const data: number[] = [];
  const entries: number[] = [];
  for (let index = 0; index < prefix; index += 1) {
    if ((durable[index] ?? -1) < prefix) continue;
    if (durability[index]?.kind === 'data') data.push(index);
    if (durability[index]?.kind === 'entry') entries.push(index);
  }
  const states: CrashState[] = [{ prefix, variant: 'as issued', dropped: new Set() }];
  if (data.length > 0) states.push({ prefix, variant: 'un-fsynced data lost', dropped: new Set(data) });
  if (entries.length > 0) states.push({ prefix, variant: 'un-fsynced entries undone', dropped: new Set(entries) });
  if (data.length > 0 && entries.length > 0)
    states.push({ prefix, variant: 'both lost', dropped: new Set([...data, ...entries]) });
  const loose = [...data, ...entries];
  for (let count = 0; count < omit && loose.length > 1; count += 1) {
    const [index] = loose.splice(Math.floor(random() * loose.length), 1);
    if (index !== undefined) states.push({ prefix, variant: `call ${index} lost alone`, dropped: new Set([index]) });
  }
  return states;
}

/**
 * The power-cut check of one operation, ALICE-style: the operation runs once under strace; each
 * crash state is built from the recorded calls on the model of the scope as it was, laid down at
 * the same place, and checked as after a SIGKILL (checkAfterCrash).
 */
export async function checkPowerCuts(
  operation: CrashOperation,
  scratch: string,
  options: { readonly seed: number; readonly maxPrefixes: number; readonly omit: number },
): Promise<PowerCutReport> {
  const random = seededRandom(options.seed);
  const scope = path.join(scratch, `power-${operation}`);
  const root = path.join(scope, 'home', 'checkpoints');
  const dir = path.join(scope, 'project');
  const prepared = await prepare(operation, root, dir);
  const child = await bundleChild(scratch);
  const initial = ModelFs.read(scope);
  const text = await traceRun(
    [process.execPath, child, operation, root, dir, '1', prepared.base, 'prepared'],
    path.join(scratch, `trace-${operation}.txt`),
    { ...process.env, UV_USE_IO_URING: '0' },
  );
  const inScope = (name: string): boolean => name === scope || name.startsWith(`${scope}/`);
  const calls = parseTrace(text).filter(
    (call) =>
      call.kind === 'stdout' ||
      (inScope(call.path) && ((call.kind !== 'rename' && call.kind !== 'link') || inScope(call.from))),
  );
  const { offsets, durability } = annotate(initial, calls);
  const durable = durableFrom(calls, durability);
  const seen = new Set<string>();
  const failures: string[] = [];
  let failed = 0;
  const points = cutPoints(calls, options.maxPrefixes, random);
  for (const prefix of points) {
    const stdout = calls
      .slice(0, prefix)
      .flatMap((call) => (call.kind === 'stdout' ? [call.text] : []))
      .join('');
    for (const state of statesAt(prefix, durability, durable, options.omit, random)) {
      const model = initial.clone();
      for (let index = 0; index < prefix; index += 1)
        if (!state.dropped.has(index)) model.apply(calls[index] as TracedCall, offsets[index] ?? 0);
      const fingerprint = model.fingerprint();
      if (seen.has(fingerprint)) continue;
      seen.add(fingerprint);
      model.materialise();
      const checked = await checkAfterCrash(operation, root, dir, acknowledged(stdout, prepared.head));
      if (checked.violations.length === 0) continue;
      failed += 1;
      if (failures.length < 20)
        failures.push(`cut after call ${prefix} (${state.variant}): ${checked.violations.join('; ')}`);
    }
  }
  return {
    operation,
    calls: calls.length,
    fsyncs: calls.filter((call) => call.kind === 'fsync').length,
    prefixes: points.length,
    states: seen.size,
    failed,
    failures,
  };
}

import { createHash } from 'node:crypto';
import type { RewindDirectoryPlan, RewindMode, RewindPlan } from '../../shared/contract/sessions-contract';
import { actorKey } from '../../shared/contract/actor-model';
import { AppError, isAppError } from '../../shared/errors';
import type { RestorePlan, RestorePort } from './session-rewinder';
import { describeCall, type CallState, type SessionState } from './session-state';

interface DirectoryTarget {
  readonly directory: string;
  readonly checkpointId: string;
  readonly checkpointTurn: number;
  /** What this session changed in it since the turn (relative); undefined: possibly anything. */
  paths: Set<string> | undefined;
  readonly problems: string[];
}

const executed = new Set(['allowed', 'asked-allowed']);

type CallTouched = CallState['record']['touched'][number];
type CallResult = NonNullable<CallState['result']>['result'];

/**
 * For each directory changed since `toTurn`: the first checkpoint taken for it at or after that
 * turn (the state before the turn's first change), and what could not be undone (a change made
 * before any checkpoint, because checkpointing failed).
 */
function directoryTargets(state: SessionState, toTurn: number): { targets: DirectoryTarget[]; problems: string[] } {
  const calls = [...state.calls.values()]
    .filter(({ record }) => record.turn >= toTurn && executed.has(record.decision))
    .sort((a, b) => a.record.seq - b.record.seq);
  const found = new Map<string, DirectoryTarget>();
  const uncovered = new Map<string, string[]>();
  for (const { record: call, result } of calls) {
    for (const touched of [...call.touched, ...memoryTouched(call.name, result?.result)]) {
      const { directory, checkpointId } = touched;
      const known = found.get(directory);
      if (known !== undefined) {
        if (touched.paths === undefined) known.paths = undefined;
        else for (const item of touched.paths) known.paths?.add(item);
        continue;
      }
      if (checkpointId === undefined) {
        uncovered.set(directory, [
          ...(uncovered.get(directory) ?? []),
          `${call.name} ${call.callId} (turn ${call.turn})`,
        ]);
        continue;
      }
      const before = uncovered.get(directory) ?? [];
      const problems =
        before.length === 0
          ? []
          : [
              `No checkpoint was taken before ${before.join(', ')}: what they changed in ${directory} before the checkpoint of turn ${call.turn} cannot be undone.`,
            ];
      found.set(directory, {
        directory,
        checkpointId,
        checkpointTurn: call.turn,
        paths: touched.paths === undefined ? undefined : new Set(touched.paths),
        problems,
      });
    }
  }
  const problems = [...uncovered.entries()]
    .filter(([directory]) => !found.has(directory))
    .map(
      ([directory, names]) =>
        `No checkpoint of ${directory} was taken since turn ${toTurn} (${names.join(', ')}); its changes cannot be undone.`,
    );
  return { targets: [...found.values()], problems };
}

/**
 * What a memory call changed, as a call's `touched`: the memory folder, the checkpoint its result
 * names (taken before the change), and the file. Nothing for a read, a failure, or no checkpoint.
 */
function memoryTouched(name: string, result: CallResult | undefined): CallTouched[] {
  if (name !== 'memory' || result?.ok !== true) return [];
  const held = (result.value as { readonly checkpoint?: unknown } | undefined)?.checkpoint;
  if (typeof held !== 'object' || held === null) return [];
  const { directory, checkpointId, path } = held as Record<string, unknown>;
  if (typeof directory !== 'string' || typeof checkpointId !== 'string' || typeof path !== 'string') return [];
  return [{ directory, checkpointId, paths: [path] }];
}

function planId(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24);
}

/** A rewind's plan and the restore plans it would apply. */
export interface PlanWithRestores {
  readonly plan: RewindPlan;
  /** Each directory's restore plan, applied as it is when the rewind runs. */
  readonly restores: Map<string, RestorePlan>;
}

/** What rewinding to `toTurn` would do: the turns rewound, each directory's restore, and what cannot be undone. */
export async function planWithRestores(
  restorePort: RestorePort,
  state: SessionState,
  toTurn: number,
  mode: RewindMode,
): Promise<PlanWithRestores> {
  requireTurn(state, toTurn);
  const turns =
    mode === 'code'
      ? []
      : [...state.turns.values()]
          .filter((turn) => turn.turn >= toTurn && turn.rewoundAt === undefined)
          .map((turn) => turn.turn)
          .sort((a, b) => a - b);
  const { restores, directories, problems } =
    mode === 'conversation'
      ? { restores: new Map<string, RestorePlan>(), directories: [], problems: [] }
      : await planDirectories(restorePort, state, toTurn);
  const id = planId({
    session: state.id,
    toTurn,
    mode,
    turns,
    directories: directories.map((item) => [
      item.directory,
      item.checkpointId,
      restores.get(item.directory)?.fingerprint,
    ]),
  });
  const allProblems = [...problems, ...memoryWrites(state, toTurn)];
  return {
    plan: { planId: id, sessionId: state.id, toTurn, mode, turns, directories, problems: allProblems },
    restores,
  };
}

/** The memory writes made since `toTurn` that no checkpoint holds the state before (so the plan cannot undo them), said in the plan. */
function memoryWrites(state: SessionState, toTurn: number): string[] {
  return [...state.calls.values()]
    .filter(
      ({ record, result }) =>
        record.name === 'memory' &&
        record.turn >= toTurn &&
        executed.has(record.decision) &&
        result?.result.ok === true &&
        typeof record.arguments === 'object' &&
        record.arguments !== null &&
        (record.arguments as Record<string, unknown>)['action'] !== 'read' &&
        memoryTouched(record.name, result.result).length === 0,
    )
    .sort((a, b) => a.record.seq - b.record.seq)
    .map(
      ({ record }) =>
        `Turn ${record.turn} wrote to memory (${describeCall(record.name, record.arguments)}) without a checkpoint before it: the rewind cannot undo it; reject or restore it on the Memory screen.`,
    );
}

function requireTurn(state: SessionState, toTurn: number): void {
  if (state.turns.has(toTurn)) return;
  const known = [...state.turns.keys()];
  throw new AppError(
    'not_found',
    `Session ${state.id} has no turn ${toTurn}${known.length === 0 ? ' (it has no turns yet)' : ` (its turns are ${Math.min(...known)}–${Math.max(...known)})`}.`,
    { sessionId: state.id, toTurn },
  );
}

/** The code half of a rewind: each changed directory's restore plan, limited to what this session changed there. */
async function planDirectories(
  restorePort: RestorePort,
  state: SessionState,
  toTurn: number,
): Promise<{ restores: Map<string, RestorePlan>; directories: RewindDirectoryPlan[]; problems: string[] }> {
  const restores = new Map<string, RestorePlan>();
  const directories: RewindDirectoryPlan[] = [];
  const { targets, problems } = directoryTargets(state, toTurn);
  for (const target of targets) {
    // Only what this session changed goes back: another session's work in the folder stays.
    const paths = target.paths === undefined ? [] : [...target.paths].sort();
    const restore = await planScoped(restorePort, target.directory, target.checkpointId, paths);
    if (restore === undefined) continue;
    if (target.paths === undefined) {
      target.problems.push(
        `A command of this session may have changed any file in ${target.directory}, so the whole folder goes back to turn ${target.checkpointTurn}, except the files others changed since, which are kept unless you choose them (the pre-rollback snapshot keeps what is restored).`,
      );
    }
    const dropped = restore.checkpoint.dropped;
    if (dropped !== undefined)
      target.problems.push(
        `The checkpoint of turn ${target.checkpointTurn} (${target.checkpointId.slice(0, 8)}) was dropped on ${new Date(dropped.droppedAt).toLocaleString()} by ${dropped.droppedBy}: the rewind restores it from the recently dropped area (d${dropped.number}), where it stays until ${new Date(dropped.expiresAt).toLocaleString()}.`,
      );
    restores.set(target.directory, restore);
    directories.push(directoryPlanOf(target, restore, state.id));
  }
  return { restores, directories, problems };
}

/** Whether another actor than the session made a file's current version (another session, a person, a program outside Vigil). */
function isOthers(entry: RestorePlan['entries'][number], sessionId: string): boolean {
  if (entry.action === 'skip') return false;
  if (entry.isChangedOutsideAgents) return true;
  return entry.changedBy !== undefined && actorKey(entry.changedBy) !== sessionId;
}

/** What a directory's restore would do, as the rewind preview shows it (unchanged files left out); others' later files are marked. */
function directoryPlanOf(target: DirectoryTarget, restore: RestorePlan, sessionId: string): RewindDirectoryPlan {
  return {
    directory: target.directory,
    checkpointId: target.checkpointId,
    checkpointTurn: target.checkpointTurn,
    files: restore.entries
      .filter((entry) => !(entry.action === 'skip' && entry.reason === 'unchanged'))
      .map((entry) => ({
        path: entry.path,
        action: entry.action,
        ...(entry.note !== undefined
          ? { reason: entry.note }
          : entry.reason !== undefined
            ? { reason: entry.reason }
            : {}),
        isChangedOutside: entry.isChangedOutsideAgents,
        changedBy: entry.changedBy,
        ...(entry.changedAt === undefined ? {} : { changedAt: entry.changedAt }),
        ...(isOthers(entry, sessionId) ? { isOthers: true } : {}),
      })),
    problems: target.problems,
  };
}

/**
 * The restore plan limited to `paths`. A path that is neither in the checkpoint nor on disk (a
 * file the session created and deleted again) has nothing to restore and is left out; when none
 * is left, there is nothing to do in the directory (undefined).
 */
async function planScoped(
  restorePort: RestorePort,
  dir: string,
  checkpointId: string,
  paths: readonly string[],
): Promise<RestorePlan | undefined> {
  try {
    return await restorePort.plan(dir, checkpointId, paths);
  } catch (error) {
    const missing: unknown = isAppError(error) && error.code === 'not_found' ? error.details?.['paths'] : undefined;
    if (paths.length === 0 || !Array.isArray(missing)) throw error;
    const rest = paths.filter((item) => !missing.includes(item));
    return rest.length === 0 ? undefined : restorePort.plan(dir, checkpointId, rest);
  }
}

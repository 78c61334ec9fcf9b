import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { AppError, isAppError } from '../../shared/errors';
import { fail, ok, toErrorData } from '../../shared/result';
import { parseToolArguments } from '../../shared/tools/parse-tool-arguments';
import type { Actor } from '../../shared/contract/actor-model';
import type { CallCollision } from '../../shared/contract/call-collision-contract';
import type { CheckpointApi, CheckpointOnFailure, LedgerView, WriteRecorder } from '../checkpoints';
import type { EventHub } from '../lib';
import type { Logger } from '../logging';
import type { ApprovalService, PolicyEngine } from '../policy';
import type { CallLog } from '../sessions';
import type { CoverageLimits, ExecutionSession, ToolAdapter } from '../tools';
import { unwatched, watchEffects } from './call-effect-watch';
import { fileToolCollision, tellOverwritten, withHeldVersion } from './call-overwrites';
import { callRecord, resultRecord } from './call-records';
import { holdWithoutCheckpoint } from './checkpoint-failure';
import { CheckpointGate } from './checkpoint-gate';
import type { CollisionGuard, CommandChange } from './collision-guard';
import { decideCall } from './decide-call';
import { defaultCheckpointLimits, executionSession, validateBatch } from './execution-session';
import type { ExecuteOptions, ToolCallOutcome, ToolCallRequest, ToolExecutor } from './executor-types';
import { LockTable } from './lock-table';
import { callOutcome, isRunnable, newPipelineItem, type PipelineItem } from './pipeline-item';

/** What the executor is built from. */
export interface ToolExecutorOptions {
  /** Where calls are logged; the session registry behind it announces them. */
  readonly sessions: CallLog;
  readonly policy: PolicyEngine;
  readonly approvals: ApprovalService;
  /** The checkpoint engine; without it calls run and say that no checkpoint could be taken. */
  readonly checkpoints?: Pick<CheckpointApi, 'checkpoint' | 'noteWritten'>;
  /** The write ledger's recorder: each call's changes are recorded as its session's (without it, only the engine hears of them). */
  readonly writes?: WriteRecorder;
  readonly adapters: readonly ToolAdapter[];
  readonly logger: Logger;
  readonly events: Pick<EventHub, 'emit'>;
  /** The user's home folder (`~`; never checkpointed itself). */
  readonly home: string;
  /** Folders no tool may touch even inside a root (Vigil's data folder). */
  readonly protectedPaths: readonly string[];
  /** What the checkpoint engine stores (read before each batch: config.json may change). */
  readonly checkpointLimits?: () => Promise<CoverageLimits>;
  /** Holds a change to a file another live session changed recently (`sessions.collisions`). */
  readonly collisions?: CollisionGuard;
  /** `checkpoints.onFailure`, read when a checkpoint fails (default: "ask"): what a call without its checkpoint becomes. */
  readonly onCheckpointFailure?: () => Promise<CheckpointOnFailure>;
}

/** The executor and what its owner needs to stop it. */
export interface RunningToolExecutor extends ToolExecutor {
  /** Stops running commands and denies waiting approvals (the core is shutting down). */
  dispose(): void;
}

/** What every stage of the pipeline shares: the options, the tools by name, the gate, the locks, the shutdown signal. */
interface Pipeline {
  readonly options: ToolExecutorOptions;
  readonly adapters: ReadonlyMap<string, ToolAdapter>;
  readonly gate: CheckpointGate;
  readonly locks: LockTable;
  /** Aborted when the core shuts down: running commands stop. */
  readonly shutdown: AbortSignal;
}

/**
 * Builds the tool executor: ONE pipeline for sequential and concurrent batches (seed 002).
 *   1. prepare: validate with the shared schema, confine paths, parse commands (nothing changes);
 *   2. decide: a policy verdict for every call; "ask" waits for a human (fail closed);
 *   3. checkpoint: for calls that will run, and only them, in call order, once per directory per turn;
 *      a call whose checkpoint failed is held for a person (or refused) unless `checkpoints.onFailure` is "allow";
 *   4. record: the decision and checkpoints go to the session log before anything runs;
 *   5. run: under read/write locks on the paths (concurrent where they do not overlap);
 *   6. record each result durably; return the outcomes in call order.
 * A sequential batch is the same pipeline run once per call, in order.
 */
export function createToolExecutor(options: ToolExecutorOptions): RunningToolExecutor {
  const shutdown = new AbortController();
  const pipeline: Pipeline = {
    options,
    adapters: new Map(options.adapters.map((adapter) => [adapter.name, adapter])),
    gate: new CheckpointGate({
      checkpoints: options.checkpoints,
      logger: options.logger,
      events: options.events,
      home: options.home,
      // What the call does without its checkpoint is the hold stage's to say.
      consequence: '',
    }),
    locks: new LockTable(),
    shutdown: shutdown.signal,
  };
  return {
    execute: (sessionId, calls, executeOptions) => executeBatch(pipeline, sessionId, calls, executeOptions),
    dispose() {
      shutdown.abort();
      options.approvals.dispose();
    },
  };
}

/** Stage 1: validates the arguments with the tool's shared schema and lets the tool prepare (nothing changes). */
async function prepareCall(pipeline: Pipeline, item: PipelineItem, session: ExecutionSession): Promise<void> {
  try {
    const args = parseToolArguments(item.request.name, item.request.arguments);
    const adapter = pipeline.adapters.get(item.request.name);
    if (adapter === undefined)
      throw new AppError('unsupported', `${item.request.name} is not available in this process; nothing was run.`, {
        tool: item.request.name,
      });
    item.prepared = await adapter.prepare(args, session);
  } catch (error) {
    if (!isAppError(error))
      pipeline.options.logger.error('Preparing a tool call failed unexpectedly', { tool: item.request.name, error });
    const data = toErrorData(error);
    item.decision = data.code === 'invalid_request' || data.code === 'unknown_call' ? 'invalid' : 'blocked';
    item.refusal = data;
  }
}

/** Stage 3: checkpoints before the calls that will run, and only them, in call order. */
async function checkpointCalls(
  pipeline: Pipeline,
  items: readonly PipelineItem[],
  session: ExecutionSession,
): Promise<void> {
  for (const item of items) {
    const checkpoint = item.prepared?.checkpoint;
    if (!isRunnable(item) || checkpoint === undefined) continue;
    const { notCovered, ...request } = checkpoint;
    const gated = await pipeline.gate.stage(
      { sessionId: session.id, agent: session.agent, turn: session.turn, tool: item.request.name, ...request },
      notCovered,
    );
    item.checkpoints = gated.checkpoints;
    item.touched = gated.touched;
    item.problems = gated.problems;
  }
}

/** Stage 6: the call's result, recorded durably in its session. */
async function finish(pipeline: Pipeline, item: PipelineItem, session: ExecutionSession): Promise<void> {
  await pipeline.options.sessions.record(session.id, [resultRecord(item)]);
}

/** The files a command overwrote that another live session had just changed, each with the command's checkpoint that holds their version. */
function commandCollisions(
  pipeline: Pipeline,
  item: PipelineItem,
  session: ExecutionSession,
  ledger: LedgerView,
  changed: readonly CommandChange[],
): CallCollision[] | undefined {
  const found = pipeline.options.collisions?.afterCommand(session.id, ledger, changed, session.roots) ?? [];
  if (found.length === 0) return undefined;
  pipeline.options.logger.warn('a terminal command overwrote another session’s recent change', {
    tool: item.request.name,
    files: found.map((collision) => collision.displayPath),
  });
  return found.map((collision) => withHeldVersion(collision, item.checkpoints));
}

/** Stage 5: runs one allowed call under its locks, watching what it changes, then records its result. */
async function runCall(pipeline: Pipeline, item: PipelineItem, session: ExecutionSession): Promise<void> {
  const prepared = item.prepared;
  if (prepared === undefined) return;
  const { options } = pipeline;
  const release = await pipeline.locks.acquire(prepared.locks);
  const actor: Actor = {
    kind: 'session',
    sessionId: session.id,
    agent: session.agent,
    turn: session.turn,
    tool: item.request.name,
  };
  const sinks = { protectedPaths: options.protectedPaths, writes: options.writes, engine: options.checkpoints };
  const log = { tool: item.request.name, session: session.id };
  // A watch that cannot start never stops the call: it runs, and what it changes is not attributed (so a restore flags it).
  const effects = await watchEffects(prepared, actor, sinks).catch((error: unknown) => {
    options.logger.error('could not read what a call is about to change', { ...log, error });
    return unwatched;
  });
  // The ledger before a command runs: its own writes are not mistaken for the other session's.
  const ledgerBefore =
    prepared.observe === undefined ? undefined : await options.collisions?.ledgerBefore().catch(() => undefined);
  const started = performance.now();
  try {
    item.result = ok(await prepared.run({ signal: pipeline.shutdown }));
  } catch (error) {
    if (!isAppError(error)) options.logger.error('A tool failed unexpectedly', { ...log, error });
    item.result = fail(toErrorData(error));
  } finally {
    item.durationMs = Math.round(performance.now() - started);
    // Still under the call's locks: what it changed is recorded as its session's before another call may change the same files.
    await effects.settle(item.result).then(
      (found) => {
        item.effects = found.effects;
        item.effectsOmitted = found.omitted;
        if (ledgerBefore !== undefined && found.changed !== undefined)
          item.collisions = commandCollisions(pipeline, item, session, ledgerBefore, found.changed);
        else if (item.overwriting !== undefined && item.result?.ok === true)
          item.collisions = [fileToolCollision(item.overwriting, item.checkpoints)];
      },
      (error: unknown) => options.logger.error('could not record what a call changed', { ...log, error }),
    );
    release();
  }
  await finish(pipeline, item, session);
  await tellOthers(pipeline, item, session);
}

/** Each session whose change this call overwrote is told, on its own card and transcript. */
async function tellOthers(pipeline: Pipeline, item: PipelineItem, session: ExecutionSession): Promise<void> {
  const { collisions, logger, sessions } = pipeline.options;
  if (collisions === undefined || item.collisions === undefined || item.collisions.length === 0) return;
  const found = item.overwriting?.collision;
  const turns = new Map(found === undefined ? [] : [[found.path, found.otherTurn]]);
  const call = {
    sessionId: session.id,
    label: collisions.labelOf(session.id),
    tool: item.request.name,
    at: new Date().toISOString(),
  };
  await tellOverwritten(sessions, logger, call, item.collisions, turns);
}

/** Stages 1–6 for a group of calls: the whole batch when concurrent, one call when sequential. */
async function runPipeline(
  pipeline: Pipeline,
  items: readonly PipelineItem[],
  session: ExecutionSession,
): Promise<void> {
  await Promise.all(items.map((item) => prepareCall(pipeline, item, session)));
  await Promise.all(items.map((item) => decideCall(item, session, pipeline.options)));
  await checkpointCalls(pipeline, items, session);
  // Stage 3b: a call whose checkpoint failed runs only if a person (or checkpoints.onFailure) lets it.
  const onFailure = pipeline.options.onCheckpointFailure ?? (() => Promise.resolve('ask' as const));
  await Promise.all(items.map((item) => holdWithoutCheckpoint(item, session, pipeline.options, onFailure)));
  // Stage 4: the decisions and checkpoints go to the session log before anything runs.
  await pipeline.options.sessions.record(
    session.id,
    items.map((item) => callRecord(item, session)),
    { durable: false },
  );
  for (const item of items) {
    if (isRunnable(item)) continue;
    item.result = fail(item.refusal ?? { code: 'unexpected', message: 'The call was refused without a reason.' });
    await finish(pipeline, item, session);
  }
  await Promise.all(items.filter(isRunnable).map((item) => runCall(pipeline, item, session)));
}

/** Runs one batch in its session's current turn: every call through the pipeline, the outcomes in call order. */
async function executeBatch(
  pipeline: Pipeline,
  sessionId: string,
  calls: readonly ToolCallRequest[],
  executeOptions: ExecuteOptions,
): Promise<readonly ToolCallOutcome[]> {
  const { options } = pipeline;
  const batch = validateBatch(calls, executeOptions);
  const state = await options.sessions.activeState(sessionId);
  const stopRunning = options.sessions.startRunning(sessionId);
  try {
    const turn = await options.sessions.ensureTurn(sessionId);
    const limits = (await options.checkpointLimits?.().catch(() => undefined)) ?? defaultCheckpointLimits;
    const session = executionSession(state, turn, options.home, options.protectedPaths, limits);
    const items = batch.calls.map((request) =>
      newPipelineItem(request, request.callId ?? randomUUID(), options.sessions.nextSeq(sessionId)),
    );
    if (batch.concurrent) await runPipeline(pipeline, items, session);
    else for (const item of items) await runPipeline(pipeline, [item], session);
    return items.map((item) => callOutcome(item, turn));
  } finally {
    stopRunning();
  }
}

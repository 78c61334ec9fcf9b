import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { AppError, isAppError, type AppErrorData } from '../../shared/errors';
import { fail, ok, toErrorData, type Result } from '../../shared/result';
import { parseToolArguments } from '../../shared/tools/parse-tool-arguments';
import type { CheckpointApi, WriteRecorder } from '../checkpoints';
import type { EventHub } from '../lib/event-hub';
import type { Logger } from '../logging/logger';
import type { ApprovalService } from '../policy/approval-service';
import type { PolicyEngine } from '../policy/policy-engine';
import { callSecretReason } from '../sessions/logged-record';
import { condenseResult, condenseValue } from '../sessions/logged-value';
import type { SessionRecord } from '../sessions/session-records';
import type { CallLog } from '../sessions/call-log';
import type { Actor } from '../../shared/contract/actor-model';
import type { CallEffect } from '../../shared/contract/sessions-contract';
import { unwatched, watchEffects } from './call-effect-watch';
import { CheckpointGate, type TouchedDirectory } from './checkpoint-gate';
import type {
  CallCheckpoint,
  ExecuteOptions,
  ToolCallOutcome,
  ToolCallRequest,
  ToolDecision,
  ToolExecutor,
} from './executor-types';
import { LockTable } from './lock-table';
import type { CoverageLimits, ExecutionSession, PreparedCall, ToolAdapter } from '../tools';
import { defaultCheckpointLimits, executionSession, validateBatch } from './execution-session';

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
}

/** One call on its way through the pipeline. */
interface Item {
  readonly request: ToolCallRequest;
  readonly callId: string;
  readonly seq: number;
  prepared?: PreparedCall;
  decision?: ToolDecision;
  reason?: string;
  /** Which UI a person decided it from (the session log records it). */
  decidedVia?: 'window' | 'page';
  refusal?: AppErrorData;
  checkpoints: readonly CallCheckpoint[];
  touched: readonly TouchedDirectory[];
  problems: readonly string[];
  result?: Result<unknown>;
  durationMs: number;
  /** The files it changed, as far as Vigil could see (its session log and summary show them). */
  effects?: readonly CallEffect[];
  effectsOmitted?: number;
}

const isRunnable = (item: Item): boolean => item.decision === 'allowed' || item.decision === 'asked-allowed';

/** The executor and what its owner needs to stop it. */
export interface RunningToolExecutor extends ToolExecutor {
  /** Stops running commands and denies waiting approvals (the core is shutting down). */
  dispose(): void;
}

/**
 * Builds the tool executor: ONE pipeline for sequential and concurrent batches (seed 002).
 *   1. prepare: validate with the shared schema, confine paths, parse commands (nothing changes);
 *   2. decide: a policy verdict for every call; "ask" waits for a human (fail closed);
 *   3. checkpoint: for calls that will run, and only them, in call order, once per directory per turn;
 *   4. record: the decision and checkpoints go to the session log before anything runs;
 *   5. run: under read/write locks on the paths (concurrent where they do not overlap);
 *   6. record each result durably; return the outcomes in call order.
 * A sequential batch is the same pipeline run once per call, in order.
 */
export function createToolExecutor(options: ToolExecutorOptions): RunningToolExecutor {
  const adapters = new Map(options.adapters.map((adapter) => [adapter.name, adapter]));
  const gate = new CheckpointGate({
    ...(options.checkpoints === undefined ? {} : { checkpoints: options.checkpoints }),
    logger: options.logger,
    events: options.events,
    home: options.home,
  });
  const locks = new LockTable();
  const shutdown = new AbortController();

  async function prepare(item: Item, session: ExecutionSession): Promise<void> {
    try {
      const args = parseToolArguments(item.request.name, item.request.arguments);
      const adapter = adapters.get(item.request.name);
      if (adapter === undefined)
        throw new AppError('unsupported', `${item.request.name} is not available in this process; nothing was run.`, {
          tool: item.request.name,
        });
      item.prepared = await adapter.prepare(args, session);
    } catch (error) {
      if (!isAppError(error))
        options.logger.error('Preparing a tool call failed unexpectedly', { tool: item.request.name, error });
      const data = toErrorData(error);
      item.decision = data.code === 'invalid_request' || data.code === 'unknown_call' ? 'invalid' : 'blocked';
      item.refusal = data;
    }
  }

  async function decide(item: Item, session: ExecutionSession): Promise<void> {
    const prepared = item.prepared;
    if (prepared === undefined) return;
    try {
      await decideWith(item, prepared, session);
    } catch (error) {
      options.logger.error('The policy failed on a tool call; it is refused', { tool: item.request.name, error });
      item.decision = 'blocked';
      item.refusal = toErrorData(error);
    }
  }

  async function decideWith(item: Item, prepared: PreparedCall, session: ExecutionSession): Promise<void> {
    const verdict = await options.policy.decide(prepared.subject);
    if (verdict.reason !== undefined) item.reason = verdict.reason;
    if (verdict.kind === 'allow') {
      item.decision = 'allowed';
      return;
    }
    if (verdict.kind === 'block') {
      item.decision = 'blocked';
      item.refusal = {
        code: 'denied',
        message: `${item.request.name} was not run: ${verdict.reason}`,
        details: { tool: item.request.name },
      };
      return;
    }
    const { config } = await options.policy.settings();
    const answer = await options.approvals.request({
      sessionId: session.id,
      agent: session.agent,
      turn: session.turn,
      callId: item.callId,
      tool: item.request.name,
      summary: prepared.summary,
      reason: verdict.reason,
      ...(prepared.cwd === undefined ? {} : { cwd: prepared.cwd }),
      timeoutMs: config.approvalTimeoutMs,
    });
    if (answer.via !== undefined) item.decidedVia = answer.via;
    if (answer.decision === 'allowed') {
      item.decision = 'asked-allowed';
      return;
    }
    item.decision = 'denied';
    const why: Record<typeof answer.decidedBy, string> = {
      human: 'a person denied it',
      timeout: `nobody answered within ${Math.round(config.approvalTimeoutMs / 1000)} s, so it was denied`,
      'session-closed': 'its session closed before anyone answered',
      shutdown: 'Vigil shut down before anyone answered',
      unattended:
        'nobody can approve calls in this process (a one-shot command), so it was denied; run it through the app or "vigil serve", or allow it with a rule in config.json',
    };
    item.refusal = {
      code: answer.decidedBy === 'timeout' || answer.decidedBy === 'unattended' ? 'timeout' : 'denied',
      message: `${item.request.name} was not run: it needed a human decision (${verdict.reason}) and ${why[answer.decidedBy]}.`,
      details: { tool: item.request.name, approval: answer.approval.id, decidedBy: answer.decidedBy },
    };
  }

  /**
   * Whether the call's contents must stay out of the session: it names or touches a secret path
   * (`.env*`, keys, credentials), judged on the paths as resolved and as given.
   */
  function isSecret(item: Item): boolean {
    const subject = item.prepared?.subject;
    const resolved = [...(subject?.paths ?? []), ...(subject?.terminal?.touched ?? [])];
    return (
      callSecretReason({
        arguments: item.request.arguments,
        resolved,
        relative: item.touched.flatMap((touched) => touched.paths ?? []),
      }) !== undefined
    );
  }

  function callRecord(item: Item, session: ExecutionSession): SessionRecord {
    return {
      type: 'call',
      at: new Date().toISOString(),
      turn: session.turn,
      seq: item.seq,
      callId: item.callId,
      name: item.request.name,
      arguments: condenseValue(item.request.arguments, { isSecret: isSecret(item) }),
      decision: item.decision ?? 'invalid',
      ...(item.reason === undefined ? {} : { reason: item.reason }),
      ...(item.decidedVia === undefined ? {} : { decidedVia: item.decidedVia }),
      checkpoints: [...item.checkpoints],
      checkpointProblems: [...item.problems],
      touched: item.touched.map(({ paths, ...rest }) => (paths === undefined ? rest : { ...rest, paths: [...paths] })),
    };
  }

  function resultRecord(item: Item): SessionRecord {
    const result = item.result ?? fail({ code: 'unexpected', message: 'The call produced no result.' });
    return {
      type: 'result',
      at: new Date().toISOString(),
      seq: item.seq,
      result: condenseResult(result, { isSecret: isSecret(item) }),
      durationMs: item.durationMs,
      ...(item.effects === undefined || item.effects.length === 0
        ? {}
        : { effects: item.effects.map((effect) => ({ ...effect })) }),
      ...(item.effectsOmitted === undefined || item.effectsOmitted === 0
        ? {}
        : { effectsOmitted: item.effectsOmitted }),
    };
  }

  async function finish(item: Item, session: ExecutionSession): Promise<void> {
    await options.sessions.record(session.id, [resultRecord(item)]);
  }

  async function run(item: Item, session: ExecutionSession): Promise<void> {
    const prepared = item.prepared;
    if (prepared === undefined) return;
    const release = await locks.acquire(prepared.locks);
    const actor: Actor = {
      kind: 'session',
      sessionId: session.id,
      agent: session.agent,
      turn: session.turn,
      tool: item.request.name,
    };
    const sinks = {
      protectedPaths: options.protectedPaths,
      ...(options.writes === undefined ? {} : { writes: options.writes }),
      ...(options.checkpoints === undefined ? {} : { engine: options.checkpoints }),
    };
    // A watch that cannot start never stops the call: it runs, and what it changes is not attributed (so a restore flags it).
    const effects = await watchEffects(prepared, actor, sinks).catch((error: unknown) => {
      options.logger.error('could not read what a call is about to change', {
        tool: item.request.name,
        session: session.id,
        error,
      });
      return unwatched;
    });
    const started = performance.now();
    try {
      item.result = ok(await prepared.run({ signal: shutdown.signal }));
    } catch (error) {
      if (!isAppError(error))
        options.logger.error('A tool failed unexpectedly', { tool: item.request.name, session: session.id, error });
      item.result = fail(toErrorData(error));
    } finally {
      item.durationMs = Math.round(performance.now() - started);
      // Still under the call's locks: what it changed is recorded as its session's before another call may change the same files.
      await effects.settle(item.result).then(
        (found) => {
          item.effects = found.effects;
          item.effectsOmitted = found.omitted;
        },
        (error: unknown) =>
          options.logger.error('could not record what a call changed', {
            tool: item.request.name,
            session: session.id,
            error,
          }),
      );
      release();
    }
    await finish(item, session);
  }

  /** Stages 1–6 for a group of calls: the whole batch when concurrent, one call when sequential. */
  async function pipeline(items: readonly Item[], session: ExecutionSession): Promise<void> {
    await Promise.all(items.map((item) => prepare(item, session)));
    await Promise.all(items.map((item) => decide(item, session)));
    for (const item of items) {
      const checkpoint = item.prepared?.checkpoint;
      if (!isRunnable(item) || checkpoint === undefined) continue;
      const { notCovered, ...request } = checkpoint;
      const gated = await gate.before({
        sessionId: session.id,
        agent: session.agent,
        turn: session.turn,
        tool: item.request.name,
        ...request,
      });
      // A checkpoint never claims to cover what it leaves out: the call's checkpoints say what that is.
      item.checkpoints =
        notCovered === undefined || notCovered.length === 0
          ? gated.checkpoints
          : gated.checkpoints.map((taken) => ({ ...taken, notCovered: [...notCovered] }));
      item.touched = gated.touched;
      item.problems = gated.problems;
    }
    await options.sessions.record(
      session.id,
      items.map((item) => callRecord(item, session)),
      { durable: false },
    );
    for (const item of items) {
      if (isRunnable(item)) continue;
      item.result = fail(item.refusal ?? { code: 'unexpected', message: 'The call was refused without a reason.' });
      await finish(item, session);
    }
    await Promise.all(items.filter(isRunnable).map((item) => run(item, session)));
  }

  return {
    async execute(sessionId, calls, executeOptions: ExecuteOptions) {
      const batch = validateBatch(calls, executeOptions);
      const state = await options.sessions.activeState(sessionId);
      const stopRunning = options.sessions.startRunning(sessionId);
      try {
        const turn = await options.sessions.ensureTurn(sessionId);
        const limits = (await options.checkpointLimits?.().catch(() => undefined)) ?? defaultCheckpointLimits;
        const session = executionSession(state, turn, options.home, options.protectedPaths, limits);
        const items: Item[] = batch.calls.map((request) => ({
          request,
          callId: request.callId ?? randomUUID(),
          seq: options.sessions.nextSeq(sessionId),
          checkpoints: [],
          touched: [],
          problems: [],
          durationMs: 0,
        }));
        if (batch.concurrent) await pipeline(items, session);
        else for (const item of items) await pipeline([item], session);
        return items.map((item): ToolCallOutcome => ({
          callId: item.callId,
          name: item.request.name,
          turn,
          decision: item.decision ?? 'invalid',
          ...(item.reason === undefined ? {} : { reason: item.reason }),
          result: item.result ?? fail({ code: 'unexpected', message: 'The call produced no result.' }),
          checkpoints: item.checkpoints,
          checkpointProblems: item.problems,
        }));
      } finally {
        stopRunning();
      }
    },
    dispose() {
      shutdown.abort();
      options.approvals.dispose();
    },
  };
}

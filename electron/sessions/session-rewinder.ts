import type { z } from 'zod';
import type { restorePlanSchema, restoreResultSchema } from '../../shared/contract/checkpoints-restore-schemas';
import type { RewindMode, RewindOutcome, RewindPlan } from '../../shared/contract/sessions-contract';
import { AppError, isAppError } from '../../shared/errors';
import type { PlainActor } from '../../shared/contract/actor-model';
import type { Logger } from '../logging';
import type { SessionState } from './session-state';
import { planWithRestores } from './rewind-planner';

/** A file in a folder, as a rewind request names the others' files to take back too. */
export interface FileInFolder {
  readonly directory: string;
  readonly path: string;
}

/** A restore plan of the checkpoint engine. */
export type RestorePlan = z.infer<typeof restorePlanSchema>;
/** What applying a restore plan did. */
export type RestoreResult = z.infer<typeof restoreResultSchema>;

/** The checkpoint engine's restore, as turn undo uses it (plan, then apply with a pre-rollback snapshot). */
export interface RestorePort {
  /** What restoring `checkpointId` would do, limited to `paths` (relative; empty: the whole directory). */
  plan(dir: string, checkpointId: string, paths: readonly string[]): Promise<RestorePlan>;
  /** Applies exactly this plan for `actor` (who asked for the rewind): refuses (`conflict`) when the directory no longer matches its fingerprint. */
  apply(plan: RestorePlan, actor?: PlainActor): Promise<RestoreResult>;
}

/** The restore service (electron/checkpoints/restore/restore-service.ts) as a RestorePort. */
export function restorePortOf(service: {
  plan(dir: string, ref: string, paths?: readonly string[]): Promise<RestorePlan>;
  restore(
    dir: string,
    ref: string,
    paths?: readonly string[],
    options?: { readonly fingerprint?: string; readonly actor?: PlainActor },
  ): Promise<RestoreResult>;
}): RestorePort {
  return {
    plan: (dir, checkpointId, paths) => service.plan(dir, checkpointId, paths),
    apply: (plan, actor) =>
      service.restore(plan.dir, plan.checkpoint.id, plan.paths, {
        fingerprint: plan.fingerprint,
        actor,
      }),
  };
}

/** Turn undo for one session's state; the registry records the outcome. */
export interface SessionRewinder {
  plan(state: SessionState, toTurn: number, mode: RewindMode): Promise<RewindPlan>;
  rewind(
    state: SessionState,
    toTurn: number,
    mode: RewindMode,
    planId?: string,
    actor?: PlainActor,
    overwrite?: readonly FileInFolder[],
  ): Promise<RewindOutcome>;
}

/** Builds turn undo on the checkpoint engine's restore (design §4). */
export function createSessionRewinder(options: {
  readonly restore: RestorePort;
  readonly logger: Logger;
}): SessionRewinder {
  return {
    async plan(state, toTurn, mode) {
      return (await planWithRestores(options.restore, state, toTurn, mode)).plan;
    },
    async rewind(state, toTurn, mode, expectedPlanId, actor, overwrite = []) {
      const { plan, restores } = await planWithRestores(options.restore, state, toTurn, mode);
      if (expectedPlanId !== undefined && expectedPlanId !== plan.planId) {
        throw new AppError(
          'conflict',
          'The session or its files changed since the rewind was previewed; nothing was changed. Preview the rewind again.',
          { planId: plan.planId },
        );
      }
      const kept = await keepOthers(options.restore, plan, restores, overwrite);
      const restored = await applyRestores(options, state, plan, kept, actor);
      return { plan, rewoundTurns: plan.turns, restored };
    },
  };
}

/**
 * Each directory's restore without the files another actor changed after the turn, unless the
 * person chose them (`overwrite`): a rewind never writes over someone else's later change by default.
 */
async function keepOthers(
  restore: RestorePort,
  plan: RewindPlan,
  restores: Map<string, RestorePlan>,
  overwrite: readonly FileInFolder[],
): Promise<Map<string, RestorePlan>> {
  const chosen = new Set(overwrite.map((file) => `${file.directory}\0${file.path}`));
  const kept = new Map<string, RestorePlan>();
  for (const directory of plan.directories) {
    const full = restores.get(directory.directory);
    if (full === undefined) continue;
    const isKept = (file: RewindPlan['directories'][number]['files'][number]): boolean =>
      file.isOthers === true && !chosen.has(`${directory.directory}\0${file.path}`);
    if (!directory.files.some(isKept)) {
      kept.set(directory.directory, full);
      continue;
    }
    const paths = directory.files.filter((file) => file.action !== 'skip' && !isKept(file)).map((file) => file.path);
    // Nothing of this session's own is left to restore here.
    if (paths.length > 0)
      kept.set(directory.directory, await restore.plan(directory.directory, full.checkpoint.id, paths));
  }
  return kept;
}

/** Applies each directory's plan in order; a failure names what was already restored and how to undo it. */
async function applyRestores(
  options: { readonly restore: RestorePort; readonly logger: Logger },
  state: SessionState,
  plan: RewindPlan,
  restores: Map<string, RestorePlan>,
  actor: PlainActor | undefined,
): Promise<RewindOutcome['restored']> {
  const restored: RewindOutcome['restored'] = [];
  for (const directory of plan.directories) {
    const restore = restores.get(directory.directory);
    if (restore === undefined) continue;
    try {
      const result = await options.restore.apply(restore, actor);
      restored.push({
        directory: directory.directory,
        preRollbackCheckpointId: result.preRollback.id,
        filesChanged: result.counts.done,
      });
    } catch (error) {
      const done = restored.map(
        (item) =>
          `${item.directory} (undo with its pre-rollback snapshot ${item.preRollbackCheckpointId?.slice(0, 8) ?? '?'})`,
      );
      options.logger.error('turn undo failed part-way', {
        session: state.id,
        directory: directory.directory,
        error,
      });
      const reason = isAppError(error) ? error.message : 'an unexpected error (see the log)';
      throw new AppError(
        isAppError(error) ? error.code : 'unexpected',
        `Restoring ${directory.directory} failed: ${reason} ${done.length === 0 ? 'Nothing was restored.' : `Already restored: ${done.join(', ')}.`} The conversation was not rewound.`,
        {
          sessionId: state.id,
          restored,
        },
      );
    }
  }
  return restored;
}

import type { Actor } from '../../shared/contract/actor-model';
import type { CallEffect } from '../../shared/contract/sessions-contract';
import type { Result } from '../../shared/result';
import type { CheckpointApi, WriteRecorder } from '../checkpoints';
import { commandEffects, fileToolEffects, maxRecordedEffects, readBefore } from './call-effects';
import type { CommandChange } from './collision-guard';
import { compareFileVersions, readFileVersions } from './command-effects';
import type { PreparedCall } from '../tools';

/** Where a call's changes are reported: the write ledger (with the actor), else the engine alone. */
export interface EffectSinks {
  readonly writes?: WriteRecorder;
  readonly engine?: Pick<CheckpointApi, 'noteWritten'>;
  /** Folders never walked (Vigil's own data folder). */
  readonly protectedPaths: readonly string[];
}

/** What a call changed, once it ran: the effects to keep in its session, and how many more there were. */
export interface SettledEffects {
  readonly effects: readonly CallEffect[];
  readonly omitted: number;
  /** A command's changed files (those recorded as its own), each with its identity before it ran. */
  readonly changed?: readonly CommandChange[];
}

/** The watch on one call: `settle` runs after it (still under its locks) and records what it changed. */
export interface EffectWatch {
  settle(result: Result<unknown> | undefined): Promise<SettledEffects>;
}

const nothing: SettledEffects = { effects: [], omitted: 0 };

/** A call whose changes are not watched (its watch could not start). */
export const unwatched: EffectWatch = { settle: () => Promise.resolve(nothing) };

/**
 * Reads what a call is about to change, before it runs. After it, every change is recorded as
 * `actor`'s through the one write ledger. A command's changes are found by walking its scope
 * before and after: a version another actor recorded while it ran (a restore, the app) stays
 * theirs, but an edit from outside Vigil made in the same files at the same moment cannot be
 * told apart from the command's (the OS gives no writer per file), and is recorded as the command's.
 * A file tool's writes are its named files, recorded only when it succeeded.
 */
export async function watchEffects(prepared: PreparedCall, actor: Actor, sinks: EffectSinks): Promise<EffectWatch> {
  const since = Date.now();
  if (prepared.observe !== undefined) {
    const { scope } = prepared.observe;
    const before = await readFileVersions(scope, sinks.protectedPaths);
    return {
      async settle() {
        // A failed command may have changed files too: what it changed is recorded whatever its result.
        const found = compareFileVersions(before, await readFileVersions(scope, sinks.protectedPaths));
        const versions = found.map((effect) => ({ path: effect.path, identity: effect.identity }));
        let own: readonly string[] = versions.map((version) => version.path);
        if (sinks.writes !== undefined) own = await sinks.writes.recordObserved(versions, actor, since);
        else if (own.length > 0) sinks.engine?.noteWritten(own, actor);
        const mine = new Set(own);
        const recorded = found.filter((effect) => mine.has(effect.path));
        return {
          effects: await commandEffects(recorded),
          omitted: Math.max(0, recorded.length - maxRecordedEffects),
          changed: recorded.map((effect) => ({ path: effect.path, before: before.get(effect.path) })),
        };
      },
    };
  }
  if (prepared.written.length === 0) return unwatched;
  const before = await readBefore(prepared.written);
  return {
    async settle(result) {
      if (result?.ok !== true) return nothing;
      if (sinks.writes !== undefined) await sinks.writes.record(prepared.written, actor);
      else sinks.engine?.noteWritten(prepared.written, actor);
      return { effects: await fileToolEffects(before), omitted: 0 };
    },
  };
}

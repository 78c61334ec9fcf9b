import type { RefStore } from '../../git-store';
import type { Timeline } from '../timeline/timeline';
import type { Cut } from './cut-reporter';
import { stageCut, type CutOptions, type StagedCut } from './retention';

/** What the retention cut of one checkpoint needs. */
export interface CheckpointCutContext {
  readonly refs: RefStore;
  readonly timeline: Timeline;
  readonly dirhash: string;
  readonly maxSnapshots: number;
  /** The shallow list as read under this hold of the store lock (only a holder writes it). */
  readonly shallow: () => Promise<ReadonlySet<string>>;
  /** Read only when the timeline is over its limit (pins change only under the lock, which is held). */
  readonly options: () => Promise<CutOptions>;
  readonly report: (cut: Cut) => Promise<void>;
}

/**
 * The retention cut of one checkpoint, the store lock held throughout: staged from the new commit
 * while the checkpoint's objects are made durable (its dropped ref's waits for the disk overlap
 * theirs), committed once the checkpoint's ref has moved, undone if it did not. A failure to stage
 * does not stop the checkpoint: it is thrown once the ref has moved, as a cut run after the move was.
 */
export class CheckpointCut {
  #staged: StagedCut | undefined;
  /** The stage under way or done: `discard` waits for it, so a stage still running never outlives its undo. */
  #staging: Promise<void> | undefined;
  #failure: { readonly error: unknown } | undefined;
  #applied: { readonly head: string; readonly dropped: number } | undefined;

  constructor(private readonly context: CheckpointCutContext) {}

  /** Stages the cut that the commit `next` calls for, before the ref moves to it. */
  stage(next: string): Promise<void> {
    this.#staging = this.#stage(next);
    return this.#staging;
  }

  async #stage(next: string): Promise<void> {
    const { refs, timeline, dirhash, maxSnapshots, options } = this.context;
    try {
      const target = { dirhash, head: next, shallow: await this.context.shallow() };
      this.#staged = await stageCut(refs, timeline, target, maxSnapshots, 'retention', options);
    } catch (error) {
      this.#failure = { error };
    }
  }

  /** The ref moved to `next`: the staged cut lets go of what it drops (a failure to stage is thrown now). */
  async apply(next: string): Promise<void> {
    const staged = this.#staged;
    this.#staged = undefined;
    if (this.#failure !== undefined) throw this.#failure.error;
    if (staged === undefined) return;
    await staged.commit();
    this.#applied = { head: next, dropped: staged.dropped };
  }

  /** The ref did not move: the staged cut is undone (its dropped ref removed), as far as it can be. */
  async discard(): Promise<void> {
    // The ref's move can fail (an fsync, the lock lost) while the stage still runs beside it: undo it once done.
    await this.#staging;
    const staged = this.#staged;
    this.#staged = undefined;
    await staged?.discard().catch(() => undefined);
  }

  /** Records the cut applied (the cut log, with what the timeline keeps); how many checkpoints it dropped. */
  async report(): Promise<number> {
    const applied = this.#applied;
    if (applied === undefined || applied.dropped === 0) return 0;
    const { refs, timeline, dirhash } = this.context;
    const kept = await timeline.count(applied.head, await refs.readShallow());
    await this.context.report({ dirhash, dropped: applied.dropped, kept, reason: 'retention' });
    return applied.dropped;
  }
}

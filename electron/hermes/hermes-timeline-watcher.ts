import type { CheckpointEntry } from '../checkpoints';
import type { Logger } from '../logging';
import type { HermesCheckpoints } from './hermes-checkpoints';
import type { Disposer } from '../lib';

/** What the watcher reads and where it reports. */
export interface HermesTimelineWatcherOptions {
  readonly hermes: HermesCheckpoints;
  /** Called for each checkpoint Hermes takes while Vigil runs, oldest first, with its stats. */
  readonly onCreated: (entry: CheckpointEntry) => void;
  readonly logger: Logger;
  /** How often the heads are looked at (default 2 s); a look costs a few small file reads per directory. */
  readonly intervalMs?: number;
}

/** What the watcher knows of one directory's Hermes timeline: its checkpoints by what a rewrite keeps, and the newest time (ms). */
interface Seen {
  readonly signatures: ReadonlySet<string>;
  readonly newest: number;
}

/** What stays the same when Hermes rewrites a commit to prune (its tree and dates); its id and parent change. */
function signature(time: number, tree: string): string {
  return `${time}:${tree}`;
}

/**
 * Reports the checkpoints Hermes Agent takes while Vigil runs, for the timelines someone has
 * looked at, so they appear live beside Vigil's (`checkpoints:created`). Hermes writes with git's
 * CLI and has no notifications, so the heads are polled: unchanged heads cost a few small reads
 * and no commit is read twice. When Hermes prunes it rewrites its history keeping trees, subjects
 * and dates, so a checkpoint is reported only when it is not a rewrite of one already seen and is
 * not older than the newest one seen.
 * Returns the disposer.
 */
export function watchHermesTimelines(options: HermesTimelineWatcherOptions): Disposer<void> {
  const seen = new Map<string, Seen>();
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;

  /** What was shown of a directory before the watcher first looked: its last read. */
  const baseline = (dir: string): Seen => {
    const commits = options.hermes.lastRead(dir) ?? [];
    return {
      signatures: new Set(commits.map((item) => signature(item.commit.time * 1000, item.commit.tree))),
      newest: Math.max(Number.NEGATIVE_INFINITY, ...commits.map((item) => item.commit.time * 1000)),
    };
  };

  const look = async (dir: string): Promise<void> => {
    const before = seen.get(dir) ?? baseline(dir);
    const entries = await options.hermes.entries(dir);
    const newest = Math.max(before.newest, ...entries.map((entry) => Date.parse(entry.time)));
    const signatureOf = (entry: CheckpointEntry): string => signature(Date.parse(entry.time), entry.tree);
    seen.set(dir, { signatures: new Set([...before.signatures, ...entries.map(signatureOf)]), newest });
    const fresh = entries
      .filter((entry) => !before.signatures.has(signatureOf(entry)) && Date.parse(entry.time) >= before.newest)
      .reverse();
    for (const entry of fresh) {
      if (isStopped) return;
      options.onCreated(await options.hermes.withStats(entry));
    }
  };

  const tick = async (): Promise<void> => {
    for (const dir of options.hermes.readDirectories()) {
      if (isStopped) return;
      await look(dir).catch((error: unknown) =>
        options.logger.warn('could not look at a Hermes checkpoint timeline', { dir, error }),
      );
    }
  };

  const schedule = (): void => {
    if (isStopped) return;
    timer = setTimeout(() => void tick().finally(schedule), options.intervalMs ?? 2_000);
    timer.unref();
  };
  schedule();
  return () => {
    isStopped = true;
    clearTimeout(timer);
  };
}

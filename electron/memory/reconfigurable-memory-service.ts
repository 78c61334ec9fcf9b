import type { MemoryChange } from '../../shared/contract/memory-contract';
import type { Logger } from '../logging';
import type { MemoryService } from './memory-service';

/** The memory store of a resident core, rebuilt in place when the `memory` section of config.json changes. */
export interface ReconfigurableMemoryService extends MemoryService {
  /**
   * Builds the store for the configuration now in force (its directories, labels and limits),
   * puts it in place, then lets the previous one finish its work and stop watching. Calls made
   * meanwhile go to the new store; a file both touch is guarded by its cross-process lock.
   */
  reconfigure(): Promise<void>;
}

/**
 * One stable memory service (what the agents' memory tool, the contract handlers and the restore
 * guard hold) over a store that is rebuilt whenever the `memory` configuration changes, so an
 * added directory is managed and watched at once, a removed one no longer is, and new limits apply.
 */
export async function createReconfigurableMemoryService(
  build: () => Promise<MemoryService>,
  logger: Logger,
): Promise<ReconfigurableMemoryService> {
  let current = await build();
  const listeners = new Set<(change: MemoryChange) => void>();
  const forward = (service: MemoryService): (() => void) =>
    service.onChange((change) => {
      for (const listener of listeners) listener(change);
    });
  let stopForwarding = forward(current);
  let rebuilding: Promise<void> = Promise.resolve();
  let isDisposedFlag = false;
  // Read through a function: the flag changes while a rebuild awaits.
  const isDisposed = (): boolean => isDisposedFlag;

  const replace = async (): Promise<void> => {
    if (isDisposed()) return;
    const next = await build();
    if (isDisposed()) {
      await next.dispose();
      return;
    }
    const previous = current;
    stopForwarding();
    current = next;
    stopForwarding = forward(next);
    await previous.dispose();
    logger.info('memory configuration applied', {
      directories: (await next.directories()).map((directory) => directory.path),
    });
  };

  return {
    directories: () => current.directories(),
    read: (dir, target) => current.read(dir, target),
    mutate: (dir, target, mutation, options) => current.mutate(dir, target, mutation, options),
    proposeAdoption: (dir, target) => current.proposeAdoption(dir, target),
    adopt: (dir, target, basis, entries, attribution) => current.adopt(dir, target, basis, entries, attribution),
    keepAppended: (dir, target, basis, entry, original, attribution) =>
      current.keepAppended(dir, target, basis, entry, original, attribution),
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    guardRestore: (dir, work) => current.guardRestore(dir, work),
    settled: () => current.settled(),
    reconfigure() {
      // One rebuild at a time, in the order the edits came; a failed one keeps the store in force.
      rebuilding = rebuilding
        .then(replace)
        .catch((error: unknown) =>
          logger.error('could not apply the memory configuration; the previous one stays in force', { error }),
        );
      return rebuilding;
    },
    async dispose() {
      isDisposedFlag = true;
      await rebuilding;
      stopForwarding();
      listeners.clear();
      await current.dispose();
    },
  };
}

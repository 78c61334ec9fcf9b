import { InProcessSpawner, warmSpawner } from './command-execution';
import type { SandboxSettings } from './sandbox-settings';

/**
 * Starts this process's sandbox engine (its module graph, network proxies and bridges) now, for a
 * one-shot command that is about to run an agent's terminal command, before the rest of its core
 * loads: the engine's wait for its bridges then passes while this process compiles and checks the
 * rest, instead of after. Never rejects (a start that fails is retried by the wrap, which refuses
 * the command with the reason). The returned disposer lets go of the engine; it stops once no
 * other user holds it.
 */
export function startEngineAhead(
  settings: () => Promise<Pick<SandboxSettings, 'network'> & { readonly sandbox: { readonly bwrapPath?: string } }>,
): () => Promise<void> {
  const spawner = new InProcessSpawner();
  warmSpawner(spawner, settings);
  return () => spawner.dispose();
}

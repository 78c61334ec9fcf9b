import { ConfigFile } from '../config';
import { loadPolicyConfig } from '../policy/lazy';

/**
 * Starts the sandbox engine of a one-shot core whose command runs an agent's terminal command, as
 * soon as the core is being built: its settings are read as the sandbox reads them before each
 * command (`policy.network`, `policy.sandbox.bwrapPath`; a broken policy section gives its
 * defaults), and its bridges' start overlaps the loading of the core's services. Each command's
 * wrap still applies the settings in force then. The returned disposer lets go of the engine.
 */
export function startSandboxAhead(configFile: string): () => Promise<void> {
  // The sandbox's lazy face is loaded lazily too: other one-shot commands do not load it.
  const headStart = import('../sandbox/lazy').then(({ loadEngineHeadStart }) => loadEngineHeadStart());
  const started = Promise.all([headStart, loadPolicyConfig()]).then(([{ startEngineAhead }, { readPolicySection }]) => {
    const config = new ConfigFile(configFile);
    return startEngineAhead(async () => {
      const { config: policy } = await readPolicySection(config);
      return { network: policy.network, sandbox: policy.sandbox };
    });
  });
  // A head start that could not load changes nothing: the call's own warm-up and wrap start the engine.
  return async () => {
    const release = await started.catch(() => undefined);
    await release?.();
  };
}

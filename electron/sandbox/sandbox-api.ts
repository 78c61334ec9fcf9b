/**
 * The OS sandbox of agent commands, as the rest of the core uses it: the CommandSandbox that wraps
 * each terminal command, its status (can it start here, and if not why and what fixes it), and the
 * `policy.network` / `policy.sandbox` sections of config.json.
 */
export {
  CommandSandbox,
  type CommandSandboxOptions,
  type SandboxedCommand,
  type SandboxRequest,
} from './command-sandbox';
export type { ScanFolderEvents, ScanFolderWatch } from './root-scan-watch';
export { describeSandboxStatus, type SandboxStatus } from './sandbox-availability';
export { sandboxEnvironment } from './sandbox-environment';
export {
  defaultSandboxSettings,
  networkPolicySchema,
  sandboxPolicySchema,
  type NetworkPolicy,
  type SandboxPolicy,
  type SandboxSettings,
} from './sandbox-settings';

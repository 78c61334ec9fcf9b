/** The sandbox's public face: other folders import only this file (lint: vigil/public-face), or lazy.ts. */

/** The paths in a root that a sandboxed command may not change (its `.git`, agents' settings). */
export { codeDenies } from './code-denies';
/** A repository's object folders, and the objects only this root holds. */
export { objectFolders, privateObjects } from './git-object-links';
/** The most hard-linked files one command gets a mount for. */
export { maxLinkMounts } from './linked-files';
/** What a look through a root found, kept between commands. */
export { RootScanCache } from './root-scan-cache';
/** Where a resident core's watchers report changes, for the scan cache to read only the folders that changed. */
export type { ScanFolderEvents, ScanFolderWatch } from './root-scan-watch';
/** The OS sandbox of agent commands as the core uses it, with the `sandbox` and `network` config sections. */
export {
  CommandSandbox,
  defaultSandboxSettings,
  describeSandboxStatus,
  networkPolicySchema,
  sandboxPolicySchema,
} from './sandbox-api';
/** One terminal command, run to its end with its output capped. */
export { runTerminalCommand } from './terminal/run-terminal-command';
export type { TerminalResult } from './terminal/run-terminal-command';

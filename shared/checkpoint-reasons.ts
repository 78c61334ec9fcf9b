/** The subjects of checkpoint commits, in the seed's words. */
export const checkpointReasons = {
  /** Before an agent's `write_file` / `patch` / other file tool. */
  beforeTool: (tool: string): string => `before ${tool}`,
  /** Before a destructive terminal command. */
  beforeTerminal: (command: string): string => `before terminal: ${command}`,
  /** The restore point taken right before a restore, so the restore can be undone. */
  preRollback: (restoringTo: string): string => `pre-rollback snapshot (restoring to ${restoringTo.slice(0, 8)})`,
  /** Taken by hand (`vigil checkpoint`, the UI). */
  manual: 'manual checkpoint',
} as const;

/** The subject of a pre-rollback snapshot (shorthand for `checkpointReasons.preRollback`). */
export function preRollbackReason(restoringTo: string): string {
  return checkpointReasons.preRollback(restoringTo);
}

/** Where a session's tools may work: the session's workspace roots, its cwd and the user's home. */
export interface WorkspaceContext {
  /** The session's working directory: relative paths resolve against it. */
  readonly cwd: string;
  /** The session's workspace roots: every path must resolve inside one of them. */
  readonly roots: readonly string[];
  /** The user's home directory: `~` expands to it, and its credential folders are protected. */
  readonly homeDir: string;
  /** More locations no tool may touch even inside a root (Vigil's own data folder, for example). */
  readonly protectedPaths?: readonly string[];
}

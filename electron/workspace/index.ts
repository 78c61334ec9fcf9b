/** The workspace's public face: where a path lands, which roots are refused, and the protected locations (lint: vigil/public-face). */
export {
  agentSettings,
  configuredCodePaths,
  gitDirOf,
  isGitDirectory,
  isGitWorkEntry,
  nestedGitDirFolders,
} from './code-locations';
export { homeCredentialStores, protectedLocations, type ProtectedLocation } from './protected-locations';
export { resolveFileTarget, type FileTarget } from './resolve-file-target';
export { resolveWorkspacePath } from './resolve-workspace-path';
export { refuseUnsafeRoots, type RootRules } from './root-rules';
export type { WorkspaceContext } from './workspace-context';
export { isWholeRefused, workspaceRootOf, type WorkspaceFacts } from './workspace-root';

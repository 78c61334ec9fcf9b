/**
 * The HTTP server's public face (lint: vigil/public-face). What the CLI loads only for one command
 * (`vigil serve`, `vigil core run`, `vigil core status`, `vigil mcp`) it reaches through lazy.ts.
 */
export { AgentCredentialStore } from './agent-credentials';
export { contentSecurityPolicy } from './security-headers';
export { serveCore, type ServedCore } from './serve-core';
export { readLiveServeInfo, type ServeInfo } from './serve-info';
export { startServe } from './start-serve';
export { serveStaticFile } from './static-files';
export { stopBackgroundCoreOf, takeOverBackgroundCore } from './take-over-background-core';

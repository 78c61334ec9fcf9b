/** What `vigil mcp` runs over stdio, loaded in one go when the command runs: the transport, its size limit and the session loop. */
export { maxMcpBodyBytes } from './mcp-limits';
export { runStdioSession, stdioShutdownBudgetMs } from './run-stdio-session';
export { StdioMessageTransport } from './stdio-message-transport';

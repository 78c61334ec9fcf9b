/** The largest MCP message accepted, over HTTP (/mcp) and over stdio (`vigil mcp`): a write_file of a large file fits. */
export const maxMcpBodyBytes = 16 * 1024 * 1024;

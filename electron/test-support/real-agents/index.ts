export { claudeEnvironment, geminiEnvironment, prepareGeminiHome } from './agent-home';
export { agentBinaries, runAgent, whyAgentCannotRun, type AgentRun, type AgentRunOptions } from './run-agent';

export {
  claudeEnvironment,
  codexEnvironment,
  codexScriptedProvider,
  geminiEnvironment,
  prepareCodexHome,
  prepareGeminiHome,
} from './agent-home';
export { agentBinaries, runAgent, whyAgentCannotRun, type AgentRun, type AgentRunOptions } from './run-agent';
export {
  runInTerminal,
  whyNoTerminal,
  type TerminalRun,
  type TerminalRunOptions,
  type TerminalStep,
} from './run-in-terminal';

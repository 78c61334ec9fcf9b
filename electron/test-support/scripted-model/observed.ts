/** A tool result an agent sent back to the scripted model: what the agent's tool (or its hook) answered. */
export interface ObservedResult {
  readonly api: 'anthropic' | 'gemini' | 'openai';
  readonly scenario: string;
  /** The id of the tool call it answers (it carries the scenario turn). */
  readonly id: string;
  readonly isError: boolean;
  readonly text: string;
}

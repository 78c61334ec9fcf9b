/**
 * Scenarios for the scripted model: what a model "says" turn by turn, as data. A turn is a list of
 * blocks (text, or a tool call with its input); `${CWD}` anywhere in a string stands for the
 * agent's working folder, read from its system prompt, so one scenario serves any folder.
 */

/** One block of a scripted turn. */
export type ScriptedBlock =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tool'; readonly name: string; readonly input: Readonly<Record<string, unknown>> }
  /** A call of a freeform tool (Codex's `apply_patch`): its input is plain text, not JSON (OpenAI's `custom_tool_call`). */
  | { readonly kind: 'freeform'; readonly name: string; readonly input: string };

/** A scripted conversation: the model's turns in order; the last one is usually text only. */
export interface Scenario {
  readonly name: string;
  readonly turns: readonly (readonly ScriptedBlock[])[];
}

/** A tool call's id: it carries the scenario turn and the block's place, so the next turn can be worked out from the conversation alone. */
export function toolCallId(prefix: string, turn: number, index: number): string {
  return `${prefix}vigil_t${turn}_${index}`;
}

/** The scenario turn a tool call id names, or undefined for ids this server did not make. */
export function turnOfId(id: string): number | undefined {
  const match = /vigil_t(\d+)_\d+$/.exec(id);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The next scenario turn: one past the latest turn whose tool calls are in the conversation (0 when none are). */
export function nextTurn(ids: readonly string[]): number {
  let latest = -1;
  for (const id of ids) latest = Math.max(latest, turnOfId(id) ?? -1);
  return latest + 1;
}

/** `value` with every `${CWD}` in its strings replaced by `cwd`, at any depth. */
export function withCwd<T>(value: T, cwd: string): T {
  if (typeof value === 'string') return value.split('${CWD}').join(cwd) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withCwd(item, cwd)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withCwd(item, cwd)])) as T;
  return value;
}

/** The marker a prompt carries to pick its scenario: `[scenario:NAME]`. */
export function scenarioMarker(name: string): string {
  return `[scenario:${name}]`;
}

/** The scenario a conversation's text names with `[scenario:NAME]`, else the only one there is. */
export function pickScenario(scenarios: readonly Scenario[], text: string): Scenario | undefined {
  const named = /\[scenario:([\w.-]+)\]/.exec(text)?.[1];
  if (named !== undefined) return scenarios.find((scenario) => scenario.name === named);
  return scenarios.length === 1 ? scenarios[0] : undefined;
}

/** The blocks of turn `turn` with `${CWD}` filled in; past the end, a closing text (the agent stops there). */
export function scriptedTurn(scenario: Scenario, turn: number, cwd: string): readonly ScriptedBlock[] {
  const blocks = scenario.turns[turn];
  if (blocks === undefined) return [{ kind: 'text', text: `Scenario ${scenario.name} is over.` }];
  return withCwd(blocks, cwd);
}

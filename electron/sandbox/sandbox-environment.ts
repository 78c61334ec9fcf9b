/** Variables no agent command inherits, whatever their name's case: shell start-up code and `cd`'s search path. */
const droppedNames = new Set(['CDPATH', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND']);

/** Whether a variable belongs to Vigil or carries one of its credentials (`VIGIL_HOME`, `VIGIL_TOKEN`, `X_VIGIL_…`). */
function isVigilVariable(name: string): boolean {
  return /vigil/iu.test(name);
}

/**
 * The environment an agent command runs with: the supervisor's own, without any Vigil variable
 * (the data folder, tokens), without shell start-up hooks and `CDPATH` (so `cd sub` goes where the
 * policy followed it), without any variable whose value holds one of `secrets` (a token Vigil
 * knows, under whatever name), and with the sandbox's own variables laid over it.
 */
export function sandboxEnvironment(
  base: NodeJS.ProcessEnv,
  extra: Readonly<Record<string, string>>,
  secrets: readonly string[] = [],
): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  const usable = secrets.filter((secret) => secret.length >= 8);
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || isVigilVariable(name) || droppedNames.has(name.toUpperCase())) continue;
    if (usable.some((secret) => value.includes(secret))) continue;
    kept[name] = value;
  }
  return { ...kept, ...extra };
}

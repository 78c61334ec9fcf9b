import { codexPatchPaths } from './codex-patch';
import { maxHookCommandChars, type HookAgent, type HookTool } from './hook-event';
import { HookFieldError, optionalTextOf, requiredText, type JsonObject } from './hook-fields';

/** How one of an agent's tools changes files: through the file its input names, or as a shell command. */
type ToolSpec =
  | { readonly kind: 'file'; readonly pathKey: string }
  | { readonly kind: 'patch' }
  | { readonly kind: 'shell'; readonly directoryKeys: readonly string[] };

const file = (pathKey: string): ToolSpec => ({ kind: 'file', pathKey });
const shell = (directoryKeys: readonly string[] = []): ToolSpec => ({ kind: 'shell', directoryKeys });

/**
 * The tools of each agent that may change files, from their documentation: Claude Code's Write,
 * Edit, MultiEdit (`file_path`), NotebookEdit (`notebook_path`) and Bash (`command`); Gemini CLI's
 * write_file and replace (`file_path`) and run_shell_command (`command`, and the folder it runs in:
 * `dir_path`, named `directory` in older releases); Codex CLI's shell (`Bash`, `command`) and
 * apply_patch (the patch text in `command`, read for the files it names). Every other tool is
 * accepted and ignored.
 */
export const hookToolSpecs: Readonly<Record<HookAgent, Readonly<Record<string, ToolSpec>>>> = {
  'claude-code': {
    Write: file('file_path'),
    Edit: file('file_path'),
    MultiEdit: file('file_path'),
    NotebookEdit: file('notebook_path'),
    Bash: shell(),
  },
  'gemini-cli': {
    write_file: file('file_path'),
    replace: file('file_path'),
    run_shell_command: shell(['dir_path', 'directory']),
  },
  codex: {
    Bash: shell(),
    apply_patch: { kind: 'patch' },
  },
};

/** The matcher of an agent's tool hooks: exactly the tools above (both agents read it as a regular expression). */
export function hookToolMatcher(agent: HookAgent): string {
  return Object.keys(hookToolSpecs[agent]).join('|');
}

/**
 * A tool call Vigil supervises, from the tool's name and input; undefined for a tool that does not
 * change files (or one Vigil does not know). Throws a HookFieldError naming a wrong input field.
 */
export function supervisedTool(
  agent: HookAgent,
  name: string,
  input: JsonObject,
  callId: string | undefined,
): HookTool | undefined {
  const specs = hookToolSpecs[agent];
  if (!Object.hasOwn(specs, name)) return undefined;
  const spec = specs[name];
  const id = callId === undefined || callId === '' ? {} : { callId };
  if (spec?.kind === 'file')
    return { kind: 'file', name, path: requiredText(input, spec.pathKey, `tool_input.${spec.pathKey}`), input, ...id };
  if (spec === undefined) return undefined;
  const command = requiredText(input, 'command', 'tool_input.command');
  if (command.length > maxHookCommandChars)
    throw new HookFieldError(
      'tool_input.command',
      `"tool_input.command" is ${command.length} characters long, more than the ${maxHookCommandChars} Vigil can assess`,
    );
  if (spec.kind === 'patch')
    return { kind: 'patch', name, paths: codexPatchPaths(command, 'tool_input.command'), input, ...id };
  const directory = optionalTextOf(input, spec.directoryKeys);
  return {
    kind: 'shell',
    name,
    command,
    ...(directory === undefined || directory === '' ? {} : { directory }),
    input,
    ...id,
  };
}

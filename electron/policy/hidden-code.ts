import type { Invocation } from './command-unwrap';
import { gitSubcommand } from './read-only-programs';

/** Code a program runs that its own name does not show, and why Vigil treats it as opaque. */
export interface HiddenCode {
  /** Shell code visible on the line (`script -c '…'`, `git submodule foreach '…'`): analysed like the line. */
  readonly child: readonly string[];
  /** Why a person should decide: Vigil cannot see, or does not follow, what runs. */
  readonly opaque: readonly string[];
}

const nothing: HiddenCode = { child: [], opaque: [] };

/** Git settings whose value git runs as a program, or that make git run code later (hooks, filters, aliases, includes). */
const codeSettings =
  /^(alias\..+|core\.(editor|pager|fsmonitor|hookspath|sshcommand|askpass|gitproxy|worktree)|sequence\.editor|diff\.(external|.+\.(command|textconv))|difftool\..+\.cmd|mergetool\..+\.cmd|merge\..+\.driver|filter\..+\.(clean|smudge|process)|pager\..+|credential\.(.+\.)?helper|gpg\.(.+\.)?program|uploadpack\..+|include\.path|includeif\..+\.path|remote\..+\.(uploadpack|receivepack|vcs)|protocol\..+\.allow|interactive\.difffilter|sendemail\..+|web\.browser|man\..+\.(cmd|path)|submodule\..+\.update|ssh\.variant|init\.templatedir)$/iu;

/** Git settings whose value is shell code git runs (`core.editor`, `alias.x=!…`): it gets the same analysis as `sh -c`. */
const shellValuedSettings =
  /^(core\.(editor|pager|fsmonitor|sshcommand|askpass|gitproxy)|sequence\.editor|diff\.(external|.+\.(command|textconv))|difftool\..+\.cmd|mergetool\..+\.cmd|merge\..+\.driver|filter\..+\.(clean|smudge|process)|pager\..+|gpg\.(.+\.)?program|interactive\.difffilter|man\..+\.cmd|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack))$/iu;
/** Settings whose value is shell code only when it starts with `!` (otherwise a git command or a helper's name). */
const bangValuedSettings = /^(alias\..+|credential\.(.+\.)?helper|submodule\..+\.update)$/iu;

/** One setting given on a git command line: `-c key=value`, or `--config-env key=VAR` (its value only known at run time). */
interface GitSetting {
  readonly key: string;
  readonly value?: string;
}

/** The settings a git invocation gives with `-c key=value` / `--config-env key=var`, before its subcommand. */
function gitCommandLineSettings(words: readonly string[]): GitSetting[] {
  const settings: GitSetting[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    if (!word.startsWith('-')) break;
    const isEnv = word === '--config-env' || word.startsWith('--config-env=');
    const given =
      word === '-c' || word === '--config-env'
        ? words[index + 1]
        : word.startsWith('--config-env=')
          ? word.slice('--config-env='.length)
          : word.startsWith('-c') && word.length > 2
            ? word.slice(2)
            : undefined;
    if (given !== undefined) {
      const at = given.indexOf('=');
      const key = at === -1 ? given : given.slice(0, at);
      settings.push(isEnv || at === -1 ? { key } : { key, value: given.slice(at + 1) });
    }
    if (
      word === '-c' ||
      word === '--config-env' ||
      ['-C', '--git-dir', '--work-tree', '--namespace', '--exec-path'].includes(word)
    )
      index += 1;
  }
  return settings;
}

/** The shell code a git setting's value is, when git runs it as such (`core.pager=less`, `alias.x=!rm x` → `rm x`). */
export function settingShellCode(key: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (shellValuedSettings.test(key)) return value;
  return bangValuedSettings.test(key) && value.startsWith('!') ? value.slice(1) : undefined;
}

function gitCode(invocation: Invocation): HiddenCode {
  const words = invocation.args.map((arg) => arg.text);
  const opaque: string[] = [];
  const child: string[] = [];
  for (const { key, value } of gitCommandLineSettings(words)) {
    if (!codeSettings.test(key)) continue;
    opaque.push(`"git -c ${key}=…" makes git run code Vigil does not follow`);
    const code = settingShellCode(key, value);
    if (code !== undefined) child.push(code);
  }
  const { name, rest } = gitSubcommand(invocation);
  const operands = rest.filter((word) => !word.startsWith('-'));
  if (
    name === 'config' &&
    operands[0] !== undefined &&
    codeSettings.test(operands[0]) &&
    (operands.length >= 2 || rest.some((word) => /^--(add|replace-all)$/u.test(word)))
  ) {
    opaque.push(`"git config ${operands[0]}" stores code that git runs later, outside what Vigil sees`);
    const code = settingShellCode(operands[0], operands[1]);
    if (code !== undefined) child.push(code);
  }
  if (name === 'submodule' && operands[0] === 'foreach') {
    opaque.push('"git submodule foreach" runs shell code in every submodule');
    child.push(rest.slice(rest.indexOf('foreach') + 1).join(' '));
  }
  if (name === 'bisect' && operands[0] === 'run') {
    opaque.push('"git bisect run" runs a program at every step');
    child.push(rest.slice(rest.indexOf('run') + 1).join(' '));
  }
  const exec = rest.findIndex((word) => word === '-x' || word.startsWith('--exec'));
  if (name === 'rebase' && exec !== -1) {
    opaque.push('"git rebase --exec" runs shell code after every commit');
    const word = rest[exec] ?? '';
    const code = word.startsWith('--exec=') ? word.slice('--exec='.length) : rest[exec + 1];
    if (code !== undefined) child.push(code);
  }
  return { child, opaque };
}

/** `script -c CMD`, `script -qc CMD`, `script --command=CMD`. */
function scriptCode(invocation: Invocation): HiddenCode {
  const words = invocation.args.map((arg) => arg.text);
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    const inline = word.startsWith('--command=') ? word.slice('--command='.length) : undefined;
    const separate = word === '--command' || /^-[A-Za-z]*c$/u.test(word) ? words[index + 1] : undefined;
    const code = inline ?? separate;
    if (code !== undefined) return { child: [code], opaque: ['"script -c" runs a command under a pseudo-terminal'] };
  }
  return nothing;
}

/** `make -f -`, `make --file=-`, `make -f /dev/stdin`: the makefile comes from the input. */
function makeCode(invocation: Invocation): HiddenCode {
  const words = invocation.args.map((arg) => arg.text);
  const stdin = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);
  const readsInput = words.some((word, index) => {
    if (word === '-f' || word === '--file' || word === '--makefile') return stdin.has(words[index + 1] ?? '');
    return /^(--file=|--makefile=|-f)/u.test(word) && stdin.has(word.replace(/^(--file=|--makefile=|-f)/u, ''));
  });
  return readsInput
    ? {
        child: [],
        opaque: [`"${invocation.program} -f -" runs a makefile read from its input, which Vigil does not analyse`],
      }
    : nothing;
}

/**
 * Code that runs without its program's name showing it: git settings that run programs (`-c
 * alias.x='!…'`, `core.editor`, `core.fsmonitor`, `core.pager`, `sequence.editor`, `git config` of
 * one), `git submodule foreach`, `script -c`, a makefile from the input, an alias defined for later
 * use. Each is opaque: a person decides, and every writable root is checkpointed first.
 */
export function hiddenCode(invocation: Invocation): HiddenCode {
  switch (invocation.program) {
    case 'git':
      return gitCode(invocation);
    case 'script':
      return scriptCode(invocation);
    case 'make':
    case 'gmake':
    case 'bmake':
    case 'nmake':
      return makeCode(invocation);
    case 'alias':
      return invocation.args.some((arg) => arg.text.includes('='))
        ? { child: [], opaque: ['the command defines an alias, and Vigil does not follow what its later use runs'] }
        : nothing;
    default:
      return nothing;
  }
}

/** Variables that make git (or the editors and pagers it starts) run code: set on the line, they are opaque. */
const gitCodeVariables =
  /(^|[\s;&|(`{!])(GIT_(EDITOR|SEQUENCE_EDITOR|PAGER|SSH_COMMAND|SSH|EXTERNAL_DIFF|ASKPASS|EXEC_PATH|TEMPLATE_DIR|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_[0-9]+|CONFIG_VALUE_[0-9]+|CONFIG_GLOBAL|CONFIG_SYSTEM|CONFIG|DIR|WORK_TREE|PROXY_COMMAND)|EDITOR|VISUAL|PAGER)\+?=/u;

/**
 * What a line shows about code and directories only as text: a `CDPATH` it sets (so `cd` may
 * lead anywhere), and variables that make git run code (`GIT_EDITOR=… git commit`).
 */
export function hiddenByAssignments(source: string): readonly string[] {
  const reasons: string[] = [];
  if (/(^|[^A-Za-z0-9_])CDPATH\+?=/u.test(source))
    reasons.push('the command sets CDPATH, so where `cd` leads is only known when it runs');
  if (/\bgit\b/u.test(source) && gitCodeVariables.test(source))
    reasons.push('the command sets a variable through which git runs code (an editor, pager, ssh command or config)');
  return reasons;
}

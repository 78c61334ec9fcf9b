import type { StandardInput } from './command-flow';
import { resolveTargets, type CommandPlace, type WorkingDirectory } from './command-targets';
import { unwrapCommand, type Invocation } from './command-unwrap';
import type { ShellWord } from './shell';

/** Programs that make links, which a later command of the same line may follow anywhere. */
const linkMakers = new Set(['ln', 'link', 'mklink', 'symlink']);

/** Whether an invocation makes a link (`ln`, `cp -s`, `New-Item -ItemType SymbolicLink`). */
export function makesLink(invocation: Invocation): boolean {
  if (linkMakers.has(invocation.program)) return true;
  if (invocation.program === 'cp')
    return invocation.args.some((arg) => /^-[A-Za-z]*s|^--symbolic-link$/u.test(arg.text));
  return (
    /^new-item$/iu.test(invocation.program) &&
    invocation.args.some((arg) => /^(symboliclink|junction|hardlink)$/iu.test(arg.text))
  );
}

/** Programs that download, whose output piped into a shell runs code from the network. */
const downloaders = new Set([
  'curl',
  'wget',
  'fetch',
  'iwr',
  'irm',
  'invoke-webrequest',
  'Invoke-WebRequest',
  'invoke-restmethod',
  'Invoke-RestMethod',
]);

/** The directories an invocation runs in: its command's, or another given by `env -C`, `sudo -D`, `find -execdir`. */
export function runDirectories(
  invocation: Invocation,
  cwds: readonly WorkingDirectory[],
  place: CommandPlace,
): WorkingDirectory[] {
  const chdir = invocation.chdir;
  if (chdir === undefined) return [...cwds];
  if (chdir === 'unknown') return [undefined];
  return resolveTargets(chdir, cwds, place).map((target) => (target.isGlob ? undefined : target.path));
}

/** The words of an invocation that may name paths: its operands and the values of `--option=value`. */
export function pathWords(invocation: Invocation): ShellWord[] {
  return invocation.args.flatMap((arg) => {
    if (arg.text.startsWith('--') && arg.text.includes('='))
      return [{ ...arg, text: arg.text.slice(arg.text.indexOf('=') + 1) }];
    return arg.text.startsWith('-') ? [] : [arg];
  });
}

/** Whether an earlier stage of the pipeline feeding a command downloads (`curl …`, `sudo wget …`, `iwr …`), wrappers unwrapped. */
export function isFedDownload(stdin: StandardInput, platform: NodeJS.Platform): boolean {
  return (
    stdin.kind === 'pipe' &&
    stdin.earlier.some((stage) => unwrapCommand(stage.words, platform).some((run) => downloaders.has(run.program)))
  );
}

import type { ShellRedirect, ShellWord } from './shell';
import type { CommandEffect } from './command-effect';

/** Redirect targets that discard or reach a terminal, never a file. */
const harmlessTargets = new Set([
  '/dev/null',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
  'nul',
  'NUL',
  '$null',
  'con',
  'CON',
]);

/** Whether a redirect or `of=` target writes no file (`/dev/null`, `/dev/fd/2`, `NUL`). */
export function isHarmlessTarget(text: string): boolean {
  return harmlessTargets.has(text) || /^\/dev\/fd\/[0-9]+$/u.test(text) || /^\/proc\/self\/fd\/[0-9]+$/u.test(text);
}

/** A literal shell word (a path Vigil fills in, such as `.`). */
export function word(text: string): ShellWord {
  return { kind: 'word', text, isQuoted: false, isDynamic: false, hasGlob: false, substitutions: [] };
}

/** The effects of a simple command's redirections (`> f` overwrites, `>> f` appends; `2>&1`, `>&2`, `2>/dev/null` do nothing). */
export function redirectEffects(redirects: readonly ShellRedirect[]): CommandEffect[] {
  const effects: CommandEffect[] = [];
  for (const redirect of redirects) {
    const target = redirect.target;
    if (target === undefined || isHarmlessTarget(target.text)) continue;
    const fd = redirect.fd === undefined ? '' : String(redirect.fd);
    const description = `${fd}${redirect.op} ${target.text}`;
    switch (redirect.op) {
      case '>':
      case '>|':
      case '&>':
        effects.push({ kind: 'overwrite', program: redirect.op, targets: [target], isInputFed: false, description });
        break;
      case '>&':
        if (!/^([0-9]+-?|-)$/u.test(target.text))
          effects.push({ kind: 'overwrite', program: redirect.op, targets: [target], isInputFed: false, description });
        break;
      case '>>':
      case '&>>':
        effects.push({ kind: 'append', program: redirect.op, targets: [target], isInputFed: false, description });
        break;
      default:
        break;
    }
  }
  return effects;
}

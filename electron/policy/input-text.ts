import { inputOf, type StandardInput } from './command-flow';
import type { ShellRedirect, SimpleCommand } from './shell';

/** What a command reads on its input, as far as the line shows. */
export type InputText =
  | { readonly kind: 'none' }
  /** A file named on the line (`< script.sh`): read at run time, like any script file. */
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'literal'; readonly text: string }
  /** Text only known at run time: why, and the part the line shows (a here-document with `$X` in it), if any. */
  | { readonly kind: 'hidden'; readonly why: string; readonly shown?: string };

const hidden = (why: string, shown?: string): InputText => ({
  kind: 'hidden',
  why,
  shown,
});
const escapes: Readonly<Record<string, string | undefined>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  a: '',
  b: '',
  f: '',
  v: '',
  e: '',
};

/** `echo -e` / `printf` escapes: `\n`, `\t`, `\\` …; `\c` ends the output. */
function unescape(text: string): string {
  const cut = text.indexOf('\\c');
  return (cut === -1 ? text : text.slice(0, cut)).replace(/\\(.)/gsu, (all, char: string) => escapes[char] ?? all);
}

function redirectText(redirect: ShellRedirect): InputText {
  const target = redirect.target;
  if (target === undefined) return hidden('its input redirection has no target');
  switch (redirect.op) {
    case '<<<':
      return target.isDynamic || target.hasGlob
        ? hidden(`the here-string ${target.text} holds expansions`, `${target.text}\n`)
        : { kind: 'literal', text: `${target.text}\n` };
    case '<<':
    case '<<-': {
      const document = target.hereDocument;
      if (document === undefined) return hidden('its here-document is missing');
      return document.isExpanded && /[$`]/u.test(document.body)
        ? hidden('its here-document holds expansions', document.body)
        : { kind: 'literal', text: document.body };
    }
    case '<':
    case '<>':
      return target.isDynamic
        ? hidden(`its input ${target.text} is only known when the command runs`)
        : { kind: 'file', path: target.text };
    default:
      return hidden(`its input comes from another file descriptor (${redirect.op}${target.text})`);
  }
}

/** What a pipeline stage prints, when it only prints literal text (`echo 'x'`, `printf 'x\n'`, `cat <<'EOF'`). */
function printedText(producer: SimpleCommand): InputText {
  const [program, ...args] = producer.words;
  const name = program?.text ?? '';
  if (program === undefined || program.isDynamic) return hidden('it reads what another command prints');
  const isLiteral = args.every((arg) => !arg.isDynamic && !arg.hasGlob);
  switch (name) {
    case 'echo': {
      let at = 0;
      while (/^-[neE]+$/u.test(args[at]?.text ?? '')) at += 1;
      const flags = args
        .slice(0, at)
        .map((arg) => arg.text)
        .join('');
      const text = args
        .slice(at)
        .map((arg) => arg.text)
        .join(' ');
      if (!isLiteral) return hidden('it reads what "echo" prints from expansions');
      return {
        kind: 'literal',
        text: (flags.includes('e') ? unescape(text) : text) + (flags.includes('n') ? '' : '\n'),
      };
    }
    case 'printf': {
      const format = args[0];
      if (!isLiteral || format === undefined || args.length > 1 || /%[^%]/u.test(format.text))
        return hidden('it reads what "printf" prints');
      return { kind: 'literal', text: unescape(format.text.replace(/%%/gu, '%')) };
    }
    case 'cat': {
      if (args.some((arg) => arg.text !== '-')) return hidden('it reads files that "cat" prints');
      const own = inputOf(producer.redirects, { kind: 'none' });
      const text = own.kind === 'redirect' ? redirectText(own.redirect) : hidden('it reads what "cat" passes on');
      if (text.kind === 'literal') return text;
      return hidden('it reads what "cat" prints', text.kind === 'hidden' ? text.shown : undefined);
    }
    default:
      return hidden(`it reads what "${name}" prints`);
  }
}

/**
 * The text a command reads on its input: a literal here-string or here-document, the literal
 * output of `echo`/`printf`/`cat <<EOF` piped in, a file, nothing — or hidden (a pipe from any
 * other program, expansions the shell fills in at run time, another file descriptor).
 */
export function inputText(stdin: StandardInput): InputText {
  switch (stdin.kind) {
    case 'none':
      return { kind: 'none' };
    case 'pipe':
      return stdin.producer === undefined
        ? hidden('it reads what a compound command prints')
        : printedText(stdin.producer);
    case 'redirect':
      return redirectText(stdin.redirect);
  }
}

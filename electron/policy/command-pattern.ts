import type { Invocation } from './command-unwrap';
import { globToRegExp } from './glob-pattern';

/**
 * Whether a command pattern matches one program run. A pattern is words: the first is the program
 * (its base name; a glob), the others must appear among its arguments in that order, each a glob
 * over a whole argument. `git push --force` matches `git push origin main --force`; `rm -*r*`
 * matches `rm -rf x` and `rm -fr x`; `git gc --prune*` matches `git gc --prune=now`.
 */
export function matchesCommandPattern(invocation: Pick<Invocation, 'program' | 'args'>, pattern: string): boolean {
  const [program, ...words] = pattern.trim().split(/\s+/u);
  if (program === undefined || !globToRegExp(program, true).test(invocation.program)) return false;
  let next = 0;
  for (const arg of invocation.args) {
    const word = words[next];
    if (word === undefined) break;
    if (globToRegExp(word, true).test(arg.text)) next += 1;
  }
  return next === words.length;
}

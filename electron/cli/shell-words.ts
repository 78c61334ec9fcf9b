/** Characters a plain word escapes with a backslash (shell-quote's set; a drive letter's colon, `C:`, is left alone). */
const specialInWord = /([A-Za-z]:)?([#!"$&'()*,:;<=>?@[\\\]^`{|}~])/g;

/** One word as a POSIX shell reads it back unchanged. */
function quoteWord(word: string): string {
  if (word === '') return "''";
  if (word.includes("'") && word.includes('!')) return `'${word.replace(/'/g, `'"'"'`)}'`;
  if (/["\s\\]/.test(word) && !word.includes("'")) return `'${word}'`;
  if (/["'\s]/.test(word)) return `"${word.replace(/(["\\$`])/g, '\\$1')}"`;
  return word.replace(specialInWord, '$1\\$2');
}

/**
 * Words joined into one command line that a POSIX shell splits back into the same words: the
 * output of shell-quote's `quote` for plain strings, without loading that CommonJS package (its
 * load is ~6 ms of every relayed restore, which prints an undo command with it).
 */
export function quoteShellWords(words: readonly string[]): string {
  return words.map(quoteWord).join(' ');
}

/** The tokens the shell lexer reads: words, control operators and redirections. */
/** A word of a shell command: quotes removed, escapes applied, expansions kept as written. */
export interface ShellWord {
  readonly kind: 'word';
  /** The word as the program would see it when it holds no expansion (`"a b"` → `a b`). */
  readonly text: string;
  /** Some part was quoted: `*` is literal, and an empty word is a real argument. */
  readonly isQuoted: boolean;
  /** Its value is only known at run time: `$VAR`, `${…}`, `$(…)`, backticks, arithmetic, brace expansion. */
  readonly isDynamic: boolean;
  /** An unquoted `*`, `?` or `[` that the shell expands against the file system. */
  readonly hasGlob: boolean;
  /** The sources of the command substitutions inside it (`$(…)`, `` `…` ``, `<(…)`), each a command of its own. */
  readonly substitutions: readonly string[];
  /** For the delimiter of a here-document (`<<EOF`): the document's text. */
  readonly hereDocument?: HereDocument;
  /** Where in `text` its first quoted or escaped part starts (`PATH="$X"` → 5): what comes before was written bare. */
  readonly quoteStart?: number;
}

/** The text of a here-document, and whether the shell expands `$…` and backticks in it (its delimiter is unquoted). */
export interface HereDocument {
  readonly body: string;
  readonly isExpanded: boolean;
}

/** A control operator: it separates commands. `\n` is one too. */
export type ControlOperator = '&&' | '||' | ';' | ';;' | ';&' | ';;&' | '|' | '|&' | '&' | '(' | ')' | '\n';

/** A redirection operator. */
export type RedirectOperator = '>' | '>>' | '>|' | '&>' | '&>>' | '>&' | '<' | '<<' | '<<-' | '<<<' | '<>' | '<&';

/** One token of a command line. */
export type ShellToken =
  | ShellWord
  | { readonly kind: 'operator'; readonly op: ControlOperator }
  | { readonly kind: 'redirect'; readonly op: RedirectOperator; readonly fd?: number };

/** The tokens of a command line and what could not be read (an unterminated quote, …). */
export interface LexResult {
  readonly tokens: readonly ShellToken[];
  readonly problems: readonly string[];
}

import { createRequire } from 'node:module';
import { parseShell, type ShellList } from '../electron/policy';

/**
 * What the command policy needs from a parse, reduced to something two parsers can be compared on:
 * the program of every simple command (nested ones included, `?` when only known at run time),
 * how many redirections and here-documents there are, and whether the line could be parsed.
 */
export interface ShellFacts {
  readonly programs: readonly string[];
  readonly redirects: number;
  readonly hereDocuments: number;
  readonly isParsed: boolean;
}

/** The facts as Vigil's own parser (electron/policy/shell) finds them. */
export function oursFacts(source: string): ShellFacts {
  const parsed = parseShell(source);
  let compoundRedirects = 0;
  const walk = (list: ShellList): void => {
    for (const step of list.steps) {
      if (step.kind !== 'command' && step.kind !== 'function') compoundRedirects += step.redirects.length;
      if (step.kind !== 'command') walk(step.body);
      step.expansions.forEach(walk);
    }
  };
  walk(parsed.script);
  const redirects = parsed.commands.flatMap((command) => command.redirects);
  return {
    programs: parsed.commands.flatMap((command) => {
      const word = command.words[0];
      return word === undefined ? [] : [word.isDynamic ? '?' : word.text];
    }),
    redirects: redirects.length + compoundRedirects,
    hereDocuments: redirects.filter((redirect) => redirect.op === '<<' || redirect.op === '<<-').length,
    isParsed: parsed.problems.length === 0,
  };
}

/** mvdan-sh's syntax tree, as much of it as the comparison reads. */
interface MvdanNode {
  readonly Args?: readonly { readonly Parts: readonly MvdanNode[] }[];
  readonly Value?: string;
  readonly Parts?: readonly MvdanNode[];
  readonly Hdoc?: unknown;
}

interface MvdanSyntax {
  NewParser(): { Parse(source: string, name: string): unknown };
  Walk(node: unknown, visit: (node: MvdanNode | null) => boolean): void;
  NodeType(node: unknown): string;
}

/** A word's literal value, or `?` when part of it is only known at run time. */
function literal(syntax: MvdanSyntax, parts: readonly MvdanNode[]): string {
  let text = '';
  for (const part of parts) {
    const type = syntax.NodeType(part);
    if (type === 'Lit' || type === 'SglQuoted') text += part.Value ?? '';
    else if (type === 'DblQuoted') {
      const inner = literal(syntax, part.Parts ?? []);
      if (inner === '?') return '?';
      text += inner;
    } else return '?';
  }
  return text;
}

let mvdan: MvdanSyntax | undefined;

/** mvdan-sh's syntax package, loaded once (about a third of a second: see the cold-start rows). */
export function mvdanSyntax(): MvdanSyntax {
  mvdan ??= (createRequire(import.meta.url)('mvdan-sh') as { syntax: MvdanSyntax }).syntax;
  return mvdan;
}

/** The facts as mvdan-sh (mvdan/sh compiled to JavaScript by GopherJS) finds them. */
export function mvdanFacts(source: string): ShellFacts {
  const syntax = mvdanSyntax();
  let file: unknown;
  try {
    file = syntax.NewParser().Parse(source, 'command.sh');
  } catch {
    return { programs: [], redirects: 0, hereDocuments: 0, isParsed: false };
  }
  const programs: string[] = [];
  let redirects = 0;
  let hereDocuments = 0;
  syntax.Walk(file, (node) => {
    if (node === null) return true;
    const type = syntax.NodeType(node);
    const first = node.Args?.[0];
    if (type === 'CallExpr' && first !== undefined) programs.push(literal(syntax, first.Parts));
    if (type === 'Redirect') {
      redirects += 1;
      if (node.Hdoc !== null && node.Hdoc !== undefined) hereDocuments += 1;
    }
    return true;
  });
  return { programs, redirects, hereDocuments, isParsed: true };
}

/** The sh-syntax (mvdan/sh compiled to WebAssembly) tree's statements, as much as the comparison reads. */
interface ShSyntaxFile {
  readonly Stmts: readonly { readonly Cmd: Record<string, unknown> | null }[];
}

/**
 * How many of sh-syntax's statements carry their command at all: its tree reaches JavaScript as
 * JSON, and a statement's command (an interface in Go) arrives as `{}`, with no words in it.
 */
export function shSyntaxCommandsWithWords(file: ShSyntaxFile): number {
  return file.Stmts.filter((statement) => statement.Cmd !== null && 'Args' in statement.Cmd).length;
}

/** Whether two parses agree on every fact (two refusals agree: the policy fails closed on either). */
export function isSameFacts(a: ShellFacts, b: ShellFacts): boolean {
  if (!a.isParsed && !b.isParsed) return true;
  return (
    a.isParsed === b.isParsed &&
    a.redirects === b.redirects &&
    a.hereDocuments === b.hereDocuments &&
    [...a.programs].sort().join('\n') === [...b.programs].sort().join('\n')
  );
}

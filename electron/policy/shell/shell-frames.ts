import type { CompoundKind, ShellRedirect, ShellStep, StepJoin } from './shell-syntax';

/** A compound command being read, or the whole line (`root`). */
export interface Frame {
  readonly kind: CompoundKind | 'function' | 'root';
  /** The word or operator that ends it (`)`, `}`, `fi`, `done`, `esac`). */
  readonly closer: string;
  readonly steps: ShellStep[];
  readonly join: StepJoin;
  readonly isNegated: boolean;
  readonly name: string;
}

/** Reserved words that open a compound command, with what closes it. */
export const openers: Readonly<Record<string, { readonly kind: CompoundKind; readonly closer: string } | undefined>> = {
  if: { kind: 'conditional', closer: 'fi' },
  case: { kind: 'conditional', closer: 'esac' },
  while: { kind: 'loop', closer: 'done' },
  until: { kind: 'loop', closer: 'done' },
  for: { kind: 'loop', closer: 'done' },
  select: { kind: 'loop', closer: 'done' },
};

function rootFrame(): Frame {
  return { kind: 'root', closer: '', steps: [], join: ';', isNegated: false, name: '' };
}

/** The compound commands the parser is inside, the whole line at the bottom. */
export class FrameStack {
  readonly #frames: Frame[] = [rootFrame()];

  /** How many frames are open, the root included. */
  get size(): number {
    return this.#frames.length;
  }

  /** The innermost frame: where the next step goes. */
  top(): Frame {
    return this.#frames[this.#frames.length - 1] ?? rootFrame();
  }

  /** The name of the innermost shell function being defined, when inside one. */
  insideFunction(): string | undefined {
    return [...this.#frames].reverse().find((frame) => frame.kind === 'function')?.name;
  }

  /** Where the innermost frame ended by `closer` is (0: the root, -1: none). */
  lastIndexOf(closer: string): number {
    return this.#frames.map((frame) => frame.closer).lastIndexOf(closer);
  }

  /** Opens a compound command or function body. */
  push(frame: Frame): void {
    this.#frames.push(frame);
  }

  /**
   * Closes the innermost frame into a step of the one around it (never the root). Returns the
   * redirections of a compound command so closed: those written right after it are its own.
   */
  pop(): ShellRedirect[] | undefined {
    const frame = this.#frames.pop();
    if (frame === undefined) return undefined;
    if (frame.kind === 'root') {
      this.#frames.push(frame);
      return undefined;
    }
    const body = { steps: frame.steps };
    if (frame.kind === 'function') {
      this.top().steps.push({
        kind: 'function',
        name: frame.name,
        body,
        join: frame.join,
        isNegated: false,
        expansions: [],
      });
      return undefined;
    }
    const own: ShellRedirect[] = [];
    this.top().steps.push({
      kind: frame.kind,
      body,
      redirects: own,
      join: frame.join,
      isNegated: frame.isNegated,
      expansions: [],
    });
    return own;
  }
}

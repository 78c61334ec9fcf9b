/** The shell parser's public face: other folders (policy/ included) import only this file (lint enforces it). */
export type { ShellWord } from './shell-tokens';
export { parseShell } from './shell-parser';
export type { ParsedShell, ShellList, ShellRedirect, ShellStep, SimpleCommand } from './shell-syntax';

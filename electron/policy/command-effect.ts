import type { ShellWord } from './shell';

/**
 * What a command does to files. Every kind changes files, so the executor checkpoints before it
 * and records its targets for turn undo. `delete`, `overwrite`, `modify`, `move`, `vcs` also lose
 * content: they are checked against system and home folders, and ask when their targets are only
 * known at run time. `overwrite-if-exists` (cp, ln, install) replaces a destination that exists;
 * `append` (`>>`, `tee -a`) and `create` (touch, mkdir) add; `opaque` runs code Vigil cannot see
 * (`python3 -c`, `curl … | sh`): it may change anything in its directory.
 */
export type EffectKind =
  'delete' | 'overwrite' | 'modify' | 'move' | 'vcs' | 'overwrite-if-exists' | 'append' | 'create' | 'opaque';

/** One effect of one program on the file system. */
export interface CommandEffect {
  readonly kind: EffectKind;
  readonly program: string;
  /** The paths it acts on, as written (resolve them against the command's working directory). */
  readonly targets: readonly ShellWord[];
  /** More targets come from its input or a search (`xargs rm`, `find -exec rm {}`) and are unknown here. */
  readonly isInputFed: boolean;
  /** One line for the approval prompt and the log (`rm -rf build`, `> out.txt`). */
  readonly description: string;
}

/** The directory watcher's face (the snapshot's watch hints): the rest of checkpoints/ imports only this file (lint: vigil/public-face). */
export { watchDirectory, type WatchedTree } from './directory-watcher';

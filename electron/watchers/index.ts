/** The watchers' public face: other folders import only this file (lint: vigil/public-face). */
export { watchDirectory, type WatchedTree } from './directory-watcher';

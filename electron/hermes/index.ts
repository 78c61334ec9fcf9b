/** Hermes's public face: other folders import only this file (lint: vigil/public-face), or lazy.ts. */

/** The flocks Hermes Agent takes on its files, held while Vigil changes them. */
export { FlockLocks, sharedFlockLocks } from './flock-locks';
export type { HeldFlock } from './flock-locks';
/** Hermes Agent's own checkpoints, read and never written. */
export { HermesCheckpoints } from './hermes-checkpoints';
/** Where the active Hermes home is, and the files Vigil reads in it. */
export { activeHermesHome, hermesHomePaths } from './hermes-home';
/** The checkpoint engine with Hermes's checkpoints merged in (built through lazy.ts). */
export type { MergedCheckpointApi } from './merged-checkpoints';

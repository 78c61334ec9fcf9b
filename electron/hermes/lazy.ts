/** Hermes's lazy face: what the composition root loads only when it builds the merged timelines (lint: vigil/public-face). */

/** Hermes Agent's checkpoints, read and never written. */
export const loadHermesCheckpoints = () => import('./hermes-checkpoints');

/** The watcher a resident core runs on Hermes's checkpoint stores. */
export const loadHermesTimelineWatcher = () => import('./hermes-timeline-watcher');

/** The checkpoint engine with Hermes's checkpoints merged into every timeline. */
export const loadMergedCheckpoints = () => import('./merged-checkpoints');

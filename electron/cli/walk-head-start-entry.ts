/** The checkpoint engine's walk head start, as `vigil checkpoint DIR` loads it once it knows it works in-process (its own chunk, not the core's). */
export { withWalkHeadStart } from '../checkpoints';

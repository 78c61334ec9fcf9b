/** The walk's worker threads, as `vigil checkpoint DIR` starts them before the head start loads (a chunk of its own, with no more than it needs). */
export { prestartWalkWorkers } from '../checkpoints';

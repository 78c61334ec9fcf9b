/** The walk's first worker thread, as `vigil checkpoint DIR` starts it before the head start loads (a chunk of its own, with no more than it needs). */
export { prestartWalkWorker } from '../checkpoints';

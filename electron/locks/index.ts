/** The file lock's public face: one lock file per guarded resource, taken over when its holder died (lint: vigil/public-face). */
export { FileLock, runOutsideFileLocks } from './file-lock';

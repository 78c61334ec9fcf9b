/** The policy's lazy face: what the composition root loads without pulling in the whole policy (lint: vigil/public-face). */

/** The `policy` section's schema of config.json, which the core checks when it reads the file. */
export const loadPolicyConfig = () => import('./policy-config');

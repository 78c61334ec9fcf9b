/** The executor's lazy face: what the composition root loads only when it builds the agents' services (lint: vigil/public-face). */

/** Sessions, policy, approvals and the executor, built over the recorded engine. */
export const loadAgentServices = () => import('./create-agent-services');

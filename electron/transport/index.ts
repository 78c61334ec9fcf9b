/** The contract transport's public face: one router of contract calls, the HTTP route type, the caller of a call (lint: vigil/public-face). */
export { actorOfCall } from './call-actor';
export type { CallContext, CallHandlers, CallPeer, PartialCallHandlers } from './call-handlers';
export { createContractRouter, type ContractRouter } from './contract-router';
export type { HttpRoute, RouteAudience, UpgradeCredential } from './http-route';

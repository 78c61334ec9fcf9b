/** The agent-client connection's public face: other folders import only this file (lint: vigil/public-face). */
export { vigilSandboxSettings } from './agent-sandbox-settings';
export { codexHomeOf, configFileOf } from './client-locations';
// The Hermes home is Hermes's own rule, kept in one place (the memory folders use it too).
export { activeHermesHome } from '../hermes';
export { applyConfigChange, describeChange, isNoChange, planConfigChange } from './config-change';
export { applyHooksChange, describeHooksChange, planHooksRemove, planHooksWrite } from './hooks-change';
export { forgetHooksOriginal, saveHooksOriginal } from './hooks-original';
export { isDefaultVigilHome, portableInvocation } from './portable-invocation';

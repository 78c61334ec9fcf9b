export { startScriptedModel, type ScriptedModel, type ServedRequest } from './scripted-model-server';
export { scenarioMarker, type Scenario, type ScriptedBlock } from './scenario';
export type { ObservedResult } from './observed';

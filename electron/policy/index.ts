/** The policy's public face: what a command or a path may do, the approvals, and the shell parser (lint: vigil/public-face). */
export { analyzeCommand, type ResolvedEffect } from './analyze-command';
export { createApprovalHandlers } from './approval-handlers';
export { ApprovalService } from './approval-service';
export { assessCommand, type CommandAssessment } from './assess-command';
export { matchesGlob } from './glob-pattern';
export { PolicyEngine, type PolicySubject } from './policy-engine';
export { parseShell, type ShellList } from './shell';

/** The memory tool's two targets, in display order; zod-free so that light processes (a relayed CLI command) can use it. */
export const memoryTargets = ['memory', 'user'] as const;

/** The file of each memory store target. */
export const memoryFileNames = { memory: 'MEMORY.md', user: 'USER.md' } as const;

/** The composition root's public face: the entry points (cli/, server/, shell/, main.ts) build a core through it (lint: vigil/public-face). */
export { coreConfigSchema } from './core-config';
export { createCore, type Core, type CoreBase } from './create-core';

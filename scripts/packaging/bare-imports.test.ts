import { describe, expect, it } from 'vitest';
import { importedPackages, packageOfSpecifier } from './bare-imports';

describe('importedPackages', () => {
  it('finds the packages a built file loads, whatever the import form', () => {
    const source = [
      'import { z } from "zod";',
      "import * as git from 'isomorphic-git';",
      'export { x } from "@modelcontextprotocol/sdk/server/mcp.js";',
      'import "ws";',
      'const c = await import("chokidar");',
      'const q = require("shell-quote");',
      'import fs from "node:fs"; import os from "os"; import { app } from "electron";',
      'import "./chunks/logger.js"; import a from "../a.js";',
      'const hint = "pick one from \\"vigil checkpoints list\\"";',
      "const worker = new Worker(`import('tsx/esm/api').then(() => import(${JSON.stringify(entry)}))`, { eval: true });",
    ].join('\n');
    expect(importedPackages(source)).toEqual([
      '@modelcontextprotocol/sdk',
      'chokidar',
      'isomorphic-git',
      'shell-quote',
      'ws',
      'zod',
    ]);
  });

  it('maps sub-path specifiers to their package', () => {
    expect(packageOfSpecifier('zod/v4')).toBe('zod');
    expect(packageOfSpecifier('@scope/pkg/deep/file.js')).toBe('@scope/pkg');
  });
});

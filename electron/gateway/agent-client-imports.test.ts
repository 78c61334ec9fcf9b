import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../test-support/run-vigil';

/** Every module specifier a TypeScript file imports or re-exports. */
function importsOf(source: string): string[] {
  return [...source.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
}

/** The local files a file imports, resolved, so the walk covers everything the client pulls in. */
async function closure(entry: string): Promise<Map<string, string[]>> {
  const seen = new Map<string, string[]>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() ?? '';
    if (seen.has(file)) continue;
    const specifiers = importsOf(await readFile(file, 'utf8'));
    seen.set(file, specifiers);
    for (const specifier of specifiers)
      if (specifier.startsWith('.')) pending.push(`${path.resolve(path.dirname(file), specifier)}.ts`);
  }
  return seen;
}

describe('the TypeScript agent client', () => {
  it('depends on nothing but ws, zod and pure shared/ code, so it can be published on its own', async () => {
    const directory = path.join(repoRoot, 'agent-client');
    const entries = (await readdir(directory)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      for (const [file, specifiers] of await closure(path.join(directory, entry))) {
        const relative = path.relative(repoRoot, file);
        expect(
          relative.startsWith('agent-client') || relative.startsWith('shared'),
          `${entry} pulls in ${relative}`,
        ).toBe(true);
        for (const specifier of specifiers.filter((name) => !name.startsWith('.'))) {
          expect(['ws', 'zod'], `${relative} imports ${specifier}`).toContain(specifier);
        }
      }
    }
  });
});

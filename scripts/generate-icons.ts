import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIconSet } from './icons/icon-set';

/**
 * `npm run icons`: draws Vigil's mark and writes every icon electron-builder needs into build/.
 * The files are committed; `scripts/icons/icon-set.test.ts` fails when they drift from this script.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

for (const file of buildIconSet()) {
  const target = path.join(root, file.path);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, file.content);
  process.stdout.write(`${file.path} (${file.content.length} bytes)\n`);
}

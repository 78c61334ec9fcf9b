import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * main-window.ts cannot run without the Electron binary, so this reads its source with the
 * TypeScript compiler and checks the `webPreferences` written at the `new BrowserWindow` call,
 * including the flags electronegativity does not know about.
 */
const source = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main-window.ts');

function browserWindowPreferences(): Map<string, string> {
  const file = ts.createSourceFile(source, readFileSync(source, 'utf8'), ts.ScriptTarget.ES2023, true);
  const found: ts.ObjectLiteralExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && node.expression.getText(file) === 'BrowserWindow') {
      const options = node.arguments?.[0];
      if (options !== undefined && ts.isObjectLiteralExpression(options)) {
        for (const property of options.properties) {
          if (
            ts.isPropertyAssignment(property) &&
            property.name.getText(file) === 'webPreferences' &&
            ts.isObjectLiteralExpression(property.initializer)
          ) {
            found.push(property.initializer);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  expect(found, 'exactly one new BrowserWindow({ webPreferences: { … } }) in main-window.ts').toHaveLength(1);
  const preferences = new Map<string, string>();
  for (const property of found[0]?.properties ?? []) {
    expect(
      ts.isPropertyAssignment(property),
      `webPreferences must be plain "key: value" entries, not ${property.getText(file)}`,
    ).toBe(true);
    if (ts.isPropertyAssignment(property))
      preferences.set(property.name.getText(file), property.initializer.getText(file));
  }
  return preferences;
}

describe('the main window’s webPreferences', () => {
  const preferences = browserWindowPreferences();

  it('isolate and sandbox the renderer, with no Node anywhere', () => {
    expect(preferences.get('contextIsolation')).toBe('true');
    expect(preferences.get('sandbox')).toBe('true');
    expect(preferences.get('nodeIntegration')).toBe('false');
    expect(preferences.get('nodeIntegrationInWorker')).toBe('false');
    expect(preferences.get('nodeIntegrationInSubFrames')).toBe('false');
  });

  it('keep web security on, insecure content, experimental features and webviews off', () => {
    expect(preferences.get('webSecurity')).toBe('true');
    expect(preferences.get('allowRunningInsecureContent')).toBe('false');
    expect(preferences.get('experimentalFeatures')).toBe('false');
    expect(preferences.get('webviewTag')).toBe('false');
    expect(preferences.get('navigateOnDragDrop')).toBe('false');
    expect(preferences.has('enableBlinkFeatures')).toBe(false);
    expect(preferences.get('disableBlinkFeatures')).toBe("'Auxclick'");
  });

  it('load only the bundled preload, and DevTools only where allowed', () => {
    expect(preferences.get('preload')).toBe('options.preloadPath');
    expect(preferences.get('devTools')).toBe('options.allowDevTools');
    expect([...preferences.keys()].filter((key) => !expectedKeys.has(key))).toEqual([]);
  });
});

/** Every preference set; a new one must be reviewed and added here. */
const expectedKeys = new Set([
  'preload',
  'contextIsolation',
  'sandbox',
  'nodeIntegration',
  'nodeIntegrationInWorker',
  'nodeIntegrationInSubFrames',
  'webSecurity',
  'allowRunningInsecureContent',
  'experimentalFeatures',
  'disableBlinkFeatures',
  'webviewTag',
  'navigateOnDragDrop',
  'safeDialogs',
  'spellcheck',
  'devTools',
]);

import type { WebPreferences } from 'electron';

/**
 * The renderer's hardened preferences: isolated, sandboxed, no Node, no webviews, no insecure
 * content, no experimental features. Kept as data so a test can assert every flag.
 */
export function hardenedWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  };
}

import type { Configuration } from 'electron-builder';

/** The fuse settings electron-builder's `electronFuses` takes. */
type FuseOptions = NonNullable<Configuration['electronFuses']>;

/**
 * Electron's fuses, flipped in the packaged binary before it is signed (docs/security.md, item 19).
 * Each one removes a way to run code in Vigil's name that the app itself never uses.
 */
export const vigilFuses = {
  /** `ELECTRON_RUN_AS_NODE` would turn the signed app into a general Node runtime. */
  runAsNode: false,
  /** Chromium's cookie store encrypted with the OS keychain (Vigil keeps no cookies, but a future page might). */
  enableCookieEncryption: true,
  /** `NODE_OPTIONS` / `NODE_EXTRA_CA_CERTS` could inject code or trust into the main process. */
  enableNodeOptionsEnvironmentVariable: false,
  /** `--inspect` and SIGUSR1 would attach a debugger to the main process. */
  enableNodeCliInspectArguments: false,
  /** macOS and Windows refuse an app.asar whose hash does not match the one in the signed binary. */
  enableEmbeddedAsarIntegrityValidation: true,
  /** Load the app only from app.asar, never from a loose `app/` folder placed beside it. */
  onlyLoadAppFromAsar: true,
  /** The renderer is served from app://, never file://, so file:// keeps no extra privileges. */
  grantFileProtocolExtraPrivileges: false,
} as const satisfies FuseOptions;

/** Production packages kept outside app.asar (in app.asar.unpacked), each for the reason given at `asarUnpack`. */
export const unpackedPackages = ['@anthropic-ai/sandbox-runtime'] as const;

/**
 * Packaging for Linux (AppImage, deb), macOS (dmg: hardened runtime, entitlements in build/) and
 * Windows (nsis). The app is `out/` (built by `npm run build`) plus the production dependencies the
 * main process loads at run time; everything else in the repository stays out of the asar.
 * `npm run dist` builds the installers (it needs the network: electron-builder downloads Electron
 * and its tool sets); `npm run test:package` checks this file offline (scripts/check-package.ts).
 */
const config: Configuration = {
  appId: 'dev.vigil.app',
  productName: 'Vigil',
  copyright: 'Copyright © Vigil developers',
  directories: { output: 'release', buildResources: 'build' },
  files: [
    'package.json',
    'out/main/**/*',
    'out/preload/**/*',
    'out/renderer/**/*',
    '!**/*.map',
    // Run-time dependencies ship as JavaScript only: no sources, type declarations, docs or tests.
    '!**/node_modules/**/*.{ts,mts,cts,tsx,map,md,markdown}',
    '!**/node_modules/**/{test,tests,__tests__,docs,example,examples}/**',
  ],
  asar: true,
  // The OS sandbox engine starts helpers of its own (its seccomp filter, its proxy) as separate
  // processes, which cannot run from inside an archive: its folder is kept as plain files.
  asarUnpack: unpackedPackages.map((name) => `node_modules/${name}/**`),
  // Vigil has no native modules, so there is nothing to rebuild against Electron's ABI.
  npmRebuild: false,
  electronFuses: vigilFuses,
  publish: null,
  linux: {
    target: ['AppImage', 'deb'],
    icon: 'build/icons',
    category: 'Development',
    executableName: 'vigil',
    synopsis: 'Supervise AI coding agents: atomic writes, checkpoints, guarded memory files.',
    maintainer: 'Vigil developers <dev@vigil.invalid>',
  },
  mac: {
    target: [{ target: 'dmg', arch: ['arm64', 'x64'] }],
    icon: 'build/icon.icns',
    category: 'public.app-category.developer-tools',
    hardenedRuntime: true,
    gatekeeperAssess: false,
    entitlements: 'build/entitlements.mac.plist',
    entitlementsInherit: 'build/entitlements.mac.plist',
  },
  win: {
    target: ['nsis'],
    icon: 'build/icon.ico',
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    // Uninstalling the app never deletes checkpoints, sessions or memory.
    deleteAppDataOnUninstall: false,
  },
};

export default config;

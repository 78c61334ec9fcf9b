/** A loopback port nothing listens on: a download attempt fails at once instead of hanging. */
const deadEnd = 'http://127.0.0.1:9/';

/**
 * The environment for electron-builder in the offline packaging check. Every place it could
 * download from (Electron zips, its tool sets, npm) points at a dead end, so a configuration that
 * would need the network fails loudly here instead of silently depending on it.
 */
export function offlineBuilderEnv(base: NodeJS.ProcessEnv, cacheDir: string): NodeJS.ProcessEnv {
  return {
    ...base,
    ELECTRON_MIRROR: deadEnd,
    ELECTRON_BUILDER_BINARIES_MIRROR: deadEnd,
    ELECTRON_BUILDER_CACHE: cacheDir,
    electron_config_cache: cacheDir,
    npm_config_offline: 'true',
    npm_config_registry: deadEnd,
    HTTP_PROXY: deadEnd,
    HTTPS_PROXY: deadEnd,
    http_proxy: deadEnd,
    https_proxy: deadEnd,
    NO_PROXY: '',
    no_proxy: '',
    CSC_IDENTITY_AUTO_DISCOVERY: 'false',
  };
}

/** The settings file's public face: config.json read once and re-read on change (lint: vigil/public-face). */
export { ConfigFile, readConfigSection } from './config-file';
export { LiveConfig, type ConfigSectionSpec } from './live-config';

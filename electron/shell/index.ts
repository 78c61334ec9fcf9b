/** The Electron shell's public face: what main.ts wires together (windows, menu, protocol, IPC, notices) (lint: vigil/public-face). */
export { applicationId, productName } from './app-identity';
export { appMenuTemplate } from './app-menu-template';
export { handleAppProtocol, registerAppSchemePrivileges } from './app-protocol';
export { desktopContentSecurityPolicy, rendererMetaContentSecurityPolicy } from './content-security-policy';
export { startDesktopGateway, type DesktopGateway } from './desktop-gateway';
export { desktopNoticeRules, subscribeDesktopNotices } from './desktop-notices';
export { revealWindow, showDesktopNotice } from './desktop-notifier';
export { gatewayUnavailableMessage } from './gateway-unavailable-message';
export { registerIpcBridge } from './ipc-bridge';
export { createMainWindow, mainWindowSizing } from './main-window';
export { openLogsFolder } from './open-logs-folder';
export { createRendererRecovery } from './renderer-recovery';
export { watchRenderer } from './renderer-watchdog';
export { shutDownWithin } from './shutdown';
export { denyAllPermissions, hardenEveryWebContents } from './web-contents-hardening';
export { placeWindow, readWindowState, type WindowState } from './window-state';
export { createWindowStateWriter } from './window-state-writer';

import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The marker Electron places right before its fuse wire (from @electron/fuses and Electron's fuses docs). */
export const fuseSentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/** The fuses in wire order (fuse wire version 1), named as electron-builder's `electronFuses` names them. */
export const fuseWireOrder = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
  'wasmTrapHandlers',
] as const;

/** A fuse's name. */
export type FuseName = (typeof fuseWireOrder)[number];

/** A fuse's state in a binary: '1' on, '0' off, 'r' removed. */
export type FuseState = 'on' | 'off' | 'removed';

/**
 * Electron's shipped defaults (docs/tutorial/fuses.md): Run-as-node, NODE_OPTIONS, --inspect and
 * file:// privileges on; cookie encryption, asar integrity and asar-only off.
 */
export const electronDefaultFuses: Readonly<Record<FuseName, FuseState>> = {
  runAsNode: 'on',
  enableCookieEncryption: 'off',
  enableNodeOptionsEnvironmentVariable: 'on',
  enableNodeCliInspectArguments: 'on',
  enableEmbeddedAsarIntegrityValidation: 'off',
  onlyLoadAppFromAsar: 'off',
  loadBrowserProcessSpecificV8Snapshot: 'off',
  grantFileProtocolExtraPrivileges: 'on',
  wasmTrapHandlers: 'on',
};

const stateByte: Readonly<Record<FuseState, string>> = { on: '1', off: '0', removed: 'r' };

/** The bytes of a fuse wire: sentinel, version 1, length, one ASCII byte per fuse. */
export function encodeFuseWire(states: Readonly<Record<FuseName, FuseState>>): Buffer {
  const wire = fuseWireOrder.map((name) => stateByte[states[name]]).join('');
  return Buffer.concat([
    Buffer.from(fuseSentinel, 'latin1'),
    Buffer.from([1, wire.length]),
    Buffer.from(wire, 'latin1'),
  ]);
}

/** Reads the fuse wire of an Electron binary; throws when there is none. */
export function readFuseWire(binary: string): Readonly<Partial<Record<FuseName, FuseState>>> {
  const bytes = readFileSync(binary);
  const at = bytes.indexOf(fuseSentinel, 0, 'latin1');
  if (at === -1) throw new Error(`${binary} has no Electron fuse wire`);
  const start = at + fuseSentinel.length;
  if (bytes[start] !== 1) throw new Error(`${binary} has fuse wire version ${String(bytes[start])}, expected 1`);
  const length = bytes[start + 1] ?? 0;
  const states: Partial<Record<FuseName, FuseState>> = {};
  fuseWireOrder.slice(0, length).forEach((name, index) => {
    const byte = String.fromCharCode(bytes[start + 2 + index] ?? 0);
    const state = (Object.keys(stateByte) as FuseState[]).find((candidate) => stateByte[candidate] === byte);
    if (state === undefined)
      throw new Error(`${binary}: fuse ${name} has the unknown state byte ${JSON.stringify(byte)}`);
    states[name] = state;
  });
  return states;
}

/**
 * Writes a stand-in Electron distribution: an `electron` executable that only says it is a
 * stand-in, carrying a fuse wire with Electron's defaults, so electron-builder's `--dir` target can
 * package and flip fuses without the real (downloaded) runtime. Returns the folder.
 */
export function writeStandInElectron(directory: string): string {
  const executable = path.join(directory, 'electron');
  const script = Buffer.from(
    '#!/bin/sh\necho "Vigil packaging check: stand-in Electron, not a runtime" >&2\nexit 1\n# ',
    'latin1',
  );
  writeFileSync(executable, Buffer.concat([script, encodeFuseWire(electronDefaultFuses), Buffer.from('\n', 'latin1')]));
  chmodSync(executable, 0o755);
  writeFileSync(path.join(directory, 'version'), 'stand-in\n');
  return directory;
}

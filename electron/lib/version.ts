import { version } from '../../package.json';

/** Vigil's version, from package.json at build time (only this field is bundled). */
export const vigilVersion: string = version;

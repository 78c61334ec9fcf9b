import packageJson from '../../package.json' with { type: 'json' };

/** Vigil's version, from package.json at build time. */
export const vigilVersion: string = packageJson.version;

import { constants } from 'node:fs';

/**
 * Flags some platforms lack (Windows): absent ones count as 0. A module of its own, with nothing
 * else in it, so that the hashing worker's walk takes the flags without the held-folder code.
 */
export const optionalFlags: Partial<typeof constants> = constants;

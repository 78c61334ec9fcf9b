import { readdirSync, readlinkSync } from 'node:fs';

/** The open descriptors of this process that point into `folder` (Linux: /proc/self/fd). */
export function openInside(folder: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(folder) ? [target] : [];
    } catch {
      return [];
    }
  });
}

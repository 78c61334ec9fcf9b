import type { MemoryUsage } from '../contract/memory-contract';

/** `39% — 862/2,200 chars`, as Hermes reports usage. */
export function describeMemoryUsage(usage: MemoryUsage): string {
  const format = (value: number): string => value.toLocaleString('en-US');
  return `${usage.percent}% — ${format(usage.chars)}/${format(usage.limit)} chars`;
}

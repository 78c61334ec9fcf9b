/** What one look at the store did. */
export type MaintenanceOutcome =
  /** Nothing needed doing. */
  | 'tidy'
  /** Garbage was collected (and the size cap enforced, if the store was over it). */
  | 'collected'
  /** Only packs piled up, with no garbage to look for: the small ones were merged, the base pack left as it is. */
  | 'merged'
  /** A collection stopped, changing nothing, for work that waited for the store lock: it runs again later. */
  | 'gave-way'
  /** Over the size cap with no garbage to collect and nothing that may be dropped (warned in the log). */
  | 'over-cap'
  /** A restore runs: the look waits until it ends. */
  | 'deferred';

import { formatMs } from './harness';

/** Why a target may be missed: what the profiles (node --cpu-prof of the CLI, the core and the workers) show the time goes to. */
export const whyNot = {
  noCore:
    "A one-shot process pays what git does not: node's start-up (the `node -e 0` row), the core's modules (~20 files, zod's schemas built at load; ~45 ms), the" +
    ' store opened and checked (temp sweep, heads; the stat cache read and its checksum) and a hashing worker thread started cold (~40 ms alone, ~55 ms ' +
    'beside the main thread), then the walk: 50,000 lstat calls made through JavaScript in the worker. The walk no longer waits for the core: when no ' +
    'resident core will take the call, the executable takes the store lock, reads the stat cache and starts the worker walking against it ~40 ms after ' +
    'the process starts, while the command and the core load; the engine adopts that walk (same directory, store, ignored folders and file size cap, ' +
    'the lock held since). Measured timeline (instrumented, new store, load ~2-3): worker started at ~40 ms, running at ~80 ms, walking at ~85-90 ms, core ready at ~160 ms, ' +
    'walk done at ~325 ms, exit at ~370 ms (before this round: running at ~85-90, walking at ~95-105, walk done at ~340, exit at ~395). A bare loop of readdir and lstat in a fresh thread takes ~170-200 ms here, ~100-120 ms of it in the kernel (git add -A ' +
    "spends ~90 ms of system time on the same calls, and its preloaded index spreads them over the cores); the walk compares each file with the cache by a plain lstat (the cache's nanosecond times turned into the double node " +
    'reports, no BigIntStats: its four Dates and a dozen BigInts per call cost ~20 ms at 50k), and in a fresh thread the loop runs unoptimised at first (~200 ms of user CPU cold, ~100 ms warm); the walk ' +
    'itself (exclusions, the comparison with the cache) is ~205 ms cold in a fresh process, ~250 ms of CPU with GC (~270 when a listing of every folder was built before the comparison). The bare loop ' +
    'split over two threads was ~25% faster on an idle host and slower on a busy one, and two workers in the real process changed nothing (431 vs 432 ms, quiet host; ' +
    'with the early start, 477 vs 434 ms on a lightly loaded one), so a one-shot process starts one per idle core (by the load average). After the walk ' +
    '~45–55 ms: the changed file hashed, ~5 loose objects, the commit and its ref, the retention check (its commits read into memory during the walk) with the stat cache saved beside it (~3 MB, ~15 ms), and the ' +
    "maintenance check (the store's folders listed, ~5-7 ms). So node's start, the worker's start and the walk alone come to ~300 ms against git's ~150–190 ms for add+commit on a quiet machine, " +
    "and on a shared 2-core machine the wall-time ratio follows the CPU ratio. Already off the path: the worker's modules are a chunk of their own (not " +
    "the core's 440 KB, nor the CLI's relay client, nor zlib: 32 KB), listings stay in the worker (each folder is compared with the stat cache there, entry by entry as its files are lstat'ed, the cache's names kept as one text; a listing is built only for a folder that differs, and only that is handed over), the walk " +
    "starts on the cache's bytes before they are decoded, the cache is decoded folder by folder on first use and saved by copying the untouched " +
    "folders' columns back under the checkpoint's own lock hold, the walk reads a file's type bits from one number per lstat, and only files whose " +
    'stat changed are read.',
  restore:
    "git checkout writes 100 files and is done (no fsync); the restore is one relayed call (its answer carries the undo number), and the core's part " +
    'of it is ~110-155 ms of wall per restore (medians of 24-30 alternating restores timed inside the core, quiet to loaded machine; ~130-190 ms before the trees and the scope check below were cut), ' +
    "its main thread busy about two thirds of it and waiting on the hashing worker and node's pool the rest, against git's whole ~70-105 ms. " +
    'In order: a durable pre-rollback snapshot (~30 ms: the 100 named files looked at (~4 ms) and hashed in a worker into one fsynced blob pack (~8-12 ms, ' +
    "the main thread meanwhile reading the checkpoint's versions of the named files (kept for the writes, up to 64 MiB) and listing their folders for dead writers' temp files, " +
    'which the writes then neither read nor list again), then 201 trees built (a folder with the names, modes and order of its last build has only its new ids ' +
    'patched into a copy of its last encoding: ~2 ms for 101 folders of 100 files, ~6 ms encoded whole) and written uncompressed, zlib stored blocks built in place ' +
    '(deflating them at level 1 cost ~9 ms more; the next collection compresses them), as a second fsynced pack (~2-4 ms), change stats, a commit and the ref, both ' +
    'fsynced (~4 ms)), a plan against it (~6-9 ms: trees kept decoded; the write ledger reads only lines appended since; each file looked at once, checked ' +
    'against the snapshot (by its stat record where its racy rule trusts it, else read again: files damaged just before are), the writes insisting on exactly that version), ' +
    "the writes with the folder fsyncs (~47-80 ms: an existing file's folder held open and checked canonical (no anchor lookup first), a temp file written, chmodded and fsynced, the target checked unchanged, renamed; about a dozen fs calls per file through " +
    "node's pool, the stale temp files found before swept; one fsync per folder, through the descriptor its last write holds, started once its folder's writes are done), a read-back of every file against the " +
    'checkpoint (~7-9 ms) and a check of the scope (~1-3 ms: a named file the read-back just proved is only looked at again with one lstat, compared with what was read back, and its folder checked for a symlink on its way, one realpath per folder; ' +
    'named folders, and whole-directory restores, are compared with the checkpoint again as before). A bare loop of the same ' +
    'per-file calls (lstat, read, temp write+fsync, rename) and folder fsyncs takes 25-45 ms here; in a profile each call through the pool costs the main thread ~15-30 µs ' +
    "(on 2 cores its wake of a pool thread often preempts it), ~2,300 calls a restore, and every promise pays async_hooks (the file locks' AsyncLocalStorage turns on " +
    "promise hooks: a loop of lstat, open, read and close takes ~2x the CPU under it; ~5-7 ms of hook frames in the restore's profile). Each restore adds two packs, so every few restores the core's background maintenance merges the packs added since into one, the base pack left as it is; " +
    "it collects the whole store into one pack (~0.9 s at 50,000 files, the old packs read in 4 MB windows) only at a process's first look, after checkpoints were dropped, or with loose objects piled up, and such a collection gives way, changing nothing, when other work of the core waits for the store lock (a restore, a checkpoint; at most five times in a row, never over the size cap or 4x past its limits). Besides all this, node's start-up (the `node -e 0` row) and the CLI's own ~30 ms (loading, the relay, printing).",
  list: (nodeStart: number): string =>
    `node -e 0 alone took ${formatMs(nodeStart)} in this run; the relayed list adds ~20 small modules, one loopback HTTP call and the core's answer on top, so on a loaded machine no node process meets 150 ms.`,
};

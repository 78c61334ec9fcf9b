import { FlockLocks } from '../flock-locks';

/**
 * A child process that takes a flock through Vigil's helper on argv[2], prints "held", and keeps
 * it until it is killed: the crash test SIGKILLs it and checks the lock comes free.
 */
const [lockPath] = process.argv.slice(2);
if (lockPath === undefined) throw new Error('usage: hold-flock.ts LOCK_PATH');
const locks = new FlockLocks();
await locks.acquire(lockPath, { timeoutMs: 60_000 });
process.stdout.write(`held ${String(process.pid)}\n`);
setInterval(() => undefined, 60_000);

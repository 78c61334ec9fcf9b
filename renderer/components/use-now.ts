import { useEffect, useState } from 'react';

/** The current time, re-read every `intervalMs` while the caller is mounted (for countdowns and "5 s ago"). */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

import { useCallback, useRef } from "react";

/**
 * Wraps a fetch-and-store function so calls never overlap: a call made while one runs
 * schedules exactly one more run after it, and answers are applied in order.
 */
export function useCoalescedRefresh(run: () => Promise<void>): () => void {
  const latest = useRef(run);
  latest.current = run;
  const state = useRef({ running: false, again: false });
  return useCallback(() => {
    const s = state.current;
    if (s.running) {
      s.again = true;
      return;
    }
    s.running = true;
    const loop = async (): Promise<void> => {
      do {
        s.again = false;
        try {
          await latest.current();
        } catch {
          // the wrapped function reports its own errors
        }
      } while (s.again);
      s.running = false;
    };
    void loop();
  }, []);
}

import { useEffect, useRef } from "react";
import { terminalFor } from "../terminal/registry";

/**
 * Shows a session's terminal. The terminal itself lives in the registry (it survives this
 * component); this only re-parents it here and keeps it fitted to the cell.
 */
export function TerminalView({ sessionId, running }: { sessionId: string; running: boolean }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const handle = terminalFor(sessionId);
    handle.mount(element);
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => handle.fit());
    });
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      handle.unmount(element);
    };
  }, [sessionId]);

  useEffect(() => {
    terminalFor(sessionId).setRunning(running);
  }, [sessionId, running]);

  return <div ref={container} className="terminal-container" data-testid="terminal" data-session-id={sessionId} />;
}

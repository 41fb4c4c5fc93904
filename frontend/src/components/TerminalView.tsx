import { useEffect, useRef, useState } from "react";
import { terminalFor, type Sizing } from "../terminal/registry";

/**
 * Shows a session's terminal. The terminal itself lives in the registry (it survives this
 * component); this only re-parents it here, keeps it fitted to the cell, and says when
 * another client's window gives the terminal its size.
 */
export function TerminalView({ sessionId, running }: { sessionId: string; running: boolean }) {
  const container = useRef<HTMLDivElement>(null);
  const [sizing, setSizing] = useState<Sizing | null>(null);

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
    const stopSizing = handle.onSizing(setSizing);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      stopSizing();
      handle.unmount(element);
    };
  }, [sessionId]);

  useEffect(() => {
    terminalFor(sessionId).setRunning(running);
  }, [sessionId, running]);

  return (
    <div className="terminal-frame">
      <div ref={container} className="terminal-container" data-testid="terminal" data-session-id={sessionId} />
      {sizing?.borrowed && running && (
        <button
          type="button"
          className="size-note"
          data-testid="size-note"
          title="Another window leads this terminal's size; typing here, or this button, fits it to this cell"
          onClick={() => {
            const handle = terminalFor(sessionId);
            handle.fitHere();
            handle.focus();
          }}
        >
          {sizing.cols}×{sizing.rows} from another window · Fit here
        </button>
      )}
    </div>
  );
}

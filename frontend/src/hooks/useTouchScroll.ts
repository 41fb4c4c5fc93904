import { useEffect, type RefObject } from "react";
import { existingTerminal } from "../terminal/registry";

/**
 * Scrolls session `sessionId`'s terminal by a one-finger drag inside `area`, a row per row's
 * height dragged, as a page scrolls. xterm.js 6 leaves touch out (its scroll area reads wheel
 * events only), so on a touch screen the scrollback was out of reach.
 */
export function useTouchScroll(area: RefObject<HTMLElement | null>, sessionId: string | undefined): void {
  useEffect(() => {
    const element = area.current;
    if (!element || !sessionId) return;
    let lastY: number | null = null;
    // Rows dragged but not yet scrolled (a slow drag moves less than a row per event).
    let pending = 0;

    const start = (event: TouchEvent) => {
      lastY = event.touches.length === 1 ? (event.touches[0]?.clientY ?? null) : null;
      pending = 0;
    };
    const move = (event: TouchEvent) => {
      const term = existingTerminal(sessionId)?.term;
      const y = event.touches.length === 1 ? event.touches[0]?.clientY : undefined;
      if (lastY === null || y === undefined || !term) return;
      const screen = element.querySelector<HTMLElement>(".xterm-screen");
      const rowHeight = screen && term.rows > 0 ? screen.clientHeight / term.rows : 16;
      pending += (lastY - y) / rowHeight;
      lastY = y;
      const rows = Math.trunc(pending);
      if (rows !== 0) {
        term.scrollLines(rows);
        pending -= rows;
      }
      // The drag is the terminal's: the page (and a pull-to-refresh) stays put.
      if (event.cancelable) event.preventDefault();
    };
    const end = () => {
      lastY = null;
    };

    element.addEventListener("touchstart", start, { passive: true });
    element.addEventListener("touchmove", move, { passive: false });
    element.addEventListener("touchend", end);
    element.addEventListener("touchcancel", end);
    return () => {
      element.removeEventListener("touchstart", start);
      element.removeEventListener("touchmove", move);
      element.removeEventListener("touchend", end);
      element.removeEventListener("touchcancel", end);
    };
  }, [area, sessionId]);
}

import { useEffect, useRef } from "react";
import { neighbour, visibleCells, type Heading } from "../state/neighbour";

const HEADINGS: Record<string, Heading> = {
  ArrowLeft: "left",
  ArrowRight: "right",
  ArrowUp: "up",
  ArrowDown: "down",
};

/**
 * Workspace shortcuts, caught before the terminals see them: Alt+Arrow moves focus to the
 * neighbouring cell, Ctrl+Shift+Enter zooms the focused cell. Nothing else is intercepted (the
 * terminals' Ctrl+Shift+C/V/F stay theirs).
 */
export function useWorkspaceKeys(
  focused: string | null,
  requestFocus: (nodeId: string) => void,
  toggleZoom: (nodeId: string) => void,
): void {
  const latest = useRef({ focused, requestFocus, toggleZoom });
  latest.current = { focused, requestFocus, toggleZoom };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTextField(event.target)) return; // Alt+Arrow and friends edit text there
      const { focused, requestFocus, toggleZoom } = latest.current;
      const heading = HEADINGS[event.key];
      if (heading && event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
        const cells = visibleCells();
        const from = cells.find((c) => c.nodeId === focused) ?? null;
        const target = from ? neighbour(from, cells, heading) : (cells[0]?.nodeId ?? null);
        event.preventDefault();
        event.stopPropagation();
        if (target) requestFocus(target);
        return;
      }
      if (event.key === "Enter" && event.ctrlKey && event.shiftKey && !event.altKey && !event.metaKey && focused) {
        event.preventDefault();
        event.stopPropagation();
        toggleZoom(focused);
      }
    };
    window.addEventListener("keydown", onKeyDown, true);
    return () => window.removeEventListener("keydown", onKeyDown, true);
  }, []);
}

/** A form field other than a terminal's hidden input. */
function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.classList.contains("xterm-helper-textarea")) return false;
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target.isContentEditable;
}

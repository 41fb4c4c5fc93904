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
 * neighbouring cell, Alt+1…9 to the shown layout's n-th cell, Ctrl+Shift+Enter zooms the
 * focused cell, Ctrl+Shift+P opens the command palette. Nothing else is intercepted (the
 * terminals' Ctrl+Shift+C/V/F stay theirs).
 */
export function useWorkspaceKeys(
  focused: string | null,
  requestFocus: (nodeId: string) => void,
  toggleZoom: (nodeId: string) => void,
  /** The shown layout's cells in reading order. */
  cells: () => string[],
  openPalette: () => void,
): void {
  const latest = useRef({ focused, requestFocus, toggleZoom, cells, openPalette });
  latest.current = { focused, requestFocus, toggleZoom, cells, openPalette };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const { focused, requestFocus, toggleZoom, cells, openPalette } = latest.current;
      if (event.key.toLowerCase() === "p" && event.ctrlKey && event.shiftKey && !event.altKey && !event.metaKey) {
        event.preventDefault();
        event.stopPropagation();
        openPalette();
        return;
      }
      if (isTextField(event.target)) return; // Alt+Arrow and friends edit text there
      const digit = /^Digit([1-9])$/.exec(event.code);
      if (digit && event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
        const target = cells()[Number(digit[1]) - 1];
        event.preventDefault();
        event.stopPropagation();
        if (target) requestFocus(target);
        return;
      }
      const heading = HEADINGS[event.key];
      if (heading && event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
        const visible = visibleCells();
        const from = visible.find((c) => c.nodeId === focused) ?? null;
        const target = from ? neighbour(from, visible, heading) : (visible[0]?.nodeId ?? null);
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

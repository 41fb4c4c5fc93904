// Rows and columns that fit a box before a terminal exists there (the size a launch asks for;
// the terminal's fit corrects it once it is shown).

import { TERMINAL_SIZE_MAX, TERMINAL_SIZE_MIN } from "../generated/TerminalSizeBounds";
import { TERMINAL_FONT_FAMILY, TERMINAL_FONT_SIZE, TERMINAL_OPTIONS } from "./theme";

let cell: { width: number; height: number } | null = null;

function cellSize(): { width: number; height: number } {
  if (cell) return cell;
  const probe = document.createElement("span");
  probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font-family:${TERMINAL_FONT_FAMILY};font-size:${TERMINAL_FONT_SIZE}px;line-height:normal`;
  probe.textContent = "W".repeat(50);
  document.body.appendChild(probe);
  const rect = probe.getBoundingClientRect();
  probe.remove();
  const lineHeight = TERMINAL_OPTIONS.lineHeight ?? 1;
  cell = {
    width: rect.width > 0 ? rect.width / 50 : 8,
    height: rect.height > 0 ? Math.ceil(rect.height * lineHeight) : 17,
  };
  return cell;
}

/** `rows` × `cols` within the bound the server accepts (it refuses any other size). */
export function withinBounds(rows: number, cols: number): { rows: number; cols: number } {
  const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
  return {
    rows: clamp(rows, TERMINAL_SIZE_MIN.rows, TERMINAL_SIZE_MAX.rows),
    cols: clamp(cols, TERMINAL_SIZE_MIN.cols, TERMINAL_SIZE_MAX.cols),
  };
}

/** The terminal size that fits `element` (at least 10×2, 80×24 when it has no size yet). */
export function fitSize(element: HTMLElement | null): { rows: number; cols: number } {
  const box = element?.getBoundingClientRect();
  if (!box || box.width < 20 || box.height < 20) return { rows: 24, cols: 80 };
  const { width, height } = cellSize();
  return withinBounds(
    Math.max(2, Math.floor((box.height - 4) / height)),
    Math.max(10, Math.floor((box.width - 8) / width)),
  );
}

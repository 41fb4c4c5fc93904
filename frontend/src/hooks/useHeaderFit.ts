import { useCallback, useLayoutEffect, useRef, useState } from "react";
import { visibleActions } from "../state/headerFit";

/** What `useHeaderFit` needs of an action. */
export interface FittedAction {
  id: string;
  icon?: unknown;
  text?: string;
  /** Lower numbers stay in the header longer when it is narrow. */
  priority: number;
}

/** Width of an icon button (16 px icon, 4 px padding, 1 px border each side); a phone's are
 *  touch-sized instead. */
export const ICON_WIDTH = 26;
/** The most of the header the agent's name claims before the actions: a long name still leaves
 *  room for some, and shows cut rather than pushing every action into the menu. */
const TITLE_CAP = 160;
/** The header's horizontal padding. */
const HEADER_PADDING = 12;

/**
 * Keeps the header's actions to what the essentials leave: the number, the agent's name, its
 * state and status (everything in the drag area but `.cell-extras`, which shrinks first) claim
 * their whole width, the actions get the rest and the overflow menu what does not fit.
 */
export function useHeaderFit(actions: readonly FittedAction[], iconWidth = ICON_WIDTH) {
  const header = useRef<HTMLDivElement>(null);
  const essentials = useRef<HTMLElement>(null);
  const widths = useRef(new Map<string, number>());
  const [width, setWidth] = useState(0);
  const [essentialWidth, setEssentialWidth] = useState(0);

  useLayoutEffect(() => {
    const element = header.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Measured after every render: a state's text ("working" → "needs you") changes no box the
  // observer sees. Natural widths only, so the result does not depend on itself.
  useLayoutEffect(() => {
    const measured = naturalWidth(essentials.current);
    setEssentialWidth((old) => (Math.abs(old - measured) > 1 ? measured : old));
  });

  const measure = useCallback((id: string, element: HTMLButtonElement | null) => {
    if (element && element.offsetWidth > 0) widths.current.set(`${id}:${element.textContent ?? ""}`, element.offsetWidth);
  }, []);

  const items = actions.map((action, index) => ({
    id: action.id,
    width: action.icon ? iconWidth + 2 : (widths.current.get(`${action.id}:${action.text ?? ""}`) ?? 18 + 7 * (action.text?.length ?? 6)) + 2,
    priority: action.priority * 100 + index,
  }));
  const available = width - HEADER_PADDING - essentialWidth;
  const visible = width === 0 ? new Set(actions.map((a) => a.id)) : visibleActions(items, available, iconWidth + 2);
  return { header, essentials, visible, measure };
}

/** The width the drag area's essentials want: each child whole (the title up to its cap). */
function naturalWidth(area: HTMLElement | null): number {
  if (!area) return 0;
  let total = 0;
  for (const child of area.children) {
    if (!(child instanceof HTMLElement) || child.classList.contains("cell-extras")) continue;
    const style = getComputedStyle(child);
    const own = child.classList.contains("cell-title") ? Math.min(child.scrollWidth, TITLE_CAP) : child.offsetWidth;
    total += own + parseFloat(style.marginLeft) + parseFloat(style.marginRight);
  }
  return Math.ceil(total);
}

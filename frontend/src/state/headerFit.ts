// Which of a cell header's actions stay in the header and which go into its overflow menu.
// Pure, so the rule is tested without a browser layout.

export interface FitItem {
  id: string;
  /** Its width in pixels, as measured (or estimated before it was ever shown). */
  width: number;
  /** Lower numbers stay visible longer. */
  priority: number;
}

/**
 * The ids that stay visible in `available` pixels. All of them when they fit; otherwise the
 * most important that fit beside the menu button (`menuWidth`), the rest going into the menu.
 */
export function visibleActions(items: readonly FitItem[], available: number, menuWidth: number): Set<string> {
  const total = items.reduce((sum, item) => sum + item.width, 0);
  if (total <= available) return new Set(items.map((item) => item.id));
  let room = available - menuWidth;
  const visible = new Set<string>();
  for (const item of [...items].sort((a, b) => a.priority - b.priority)) {
    if (item.width > room) break;
    visible.add(item.id);
    room -= item.width;
  }
  return visible;
}

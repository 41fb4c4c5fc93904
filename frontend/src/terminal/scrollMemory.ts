// How far each terminal was scrolled back from the bottom when the page went away, kept in
// sessionStorage (this tab only) so that a reload puts the viewport back after the replay.

const KEY = "idea.scrollBack";

let remembered: Record<string, number> | null = null;

/** Lines between session `sessionId`'s viewport and the bottom at the last unload (0: none). */
export function rememberedDistance(sessionId: string): number {
  if (remembered === null) {
    try {
      remembered = JSON.parse(sessionStorage.getItem(KEY) ?? "{}") as Record<string, number>;
    } catch {
      remembered = {};
    }
  }
  const distance = remembered[sessionId];
  return typeof distance === "number" && distance > 0 ? distance : 0;
}

/** Remembers each terminal's distance from the bottom (a terminal at the bottom is left out). */
export function rememberDistances(distances: Iterable<[string, number]>): void {
  const kept: Record<string, number> = {};
  for (const [sessionId, distance] of distances) if (distance > 0) kept[sessionId] = distance;
  sessionStorage.setItem(KEY, JSON.stringify(kept));
}

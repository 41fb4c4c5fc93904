// Clipboard access for terminals, tolerant of webviews that refuse it.

/** Copies `text`; with `fallback`, tries `execCommand("copy")` when the async API is refused. */
export async function copyText(text: string, { fallback }: { fallback: boolean }): Promise<boolean> {
  if (!text) return false;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!fallback) return false;
    // Fallback for contexts without the async clipboard API (older webviews).
    const area = document.createElement("textarea");
    area.value = text;
    area.style.cssText = "position:fixed;opacity:0;pointer-events:none";
    const previous = document.activeElement as HTMLElement | null;
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    previous?.focus();
    return ok;
  }
}

export async function readText(): Promise<string | null> {
  try {
    return await navigator.clipboard.readText();
  } catch {
    return null;
  }
}

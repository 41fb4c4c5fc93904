import { useEffect, useRef, useState } from "react";
import { useCommands } from "../state/commandBus";

/** Every keyboard shortcut, for the top bar's hints and the help popover. */
export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: "Ctrl+Shift+P", does: "every command by name" },
  { keys: "Alt+←↑→↓", does: "move to the neighbouring cell" },
  { keys: "Alt+1…9", does: "go to cell n (the number in its header)" },
  { keys: "Ctrl+Shift+Enter", does: "zoom the cell, or restore the layout" },
  { keys: "Ctrl+Shift+F", does: "find in the terminal" },
  { keys: "Ctrl+Shift+C / V", does: "copy / paste in the terminal" },
];

/** The "Keys" button and its popover listing every shortcut (the inline hints do not fit a
 * narrow window); the palette's "Keyboard shortcuts" opens it too. */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  useCommands("shortcuts", () => setOpen(true));

  useEffect(() => {
    if (!open) return;
    // Focus inside, so that Escape reaches it even when opened from the palette.
    popover.current?.focus();
    const outside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", outside, true);
    return () => document.removeEventListener("mousedown", outside, true);
  }, [open]);

  return (
    <div
      className="shortcuts-help"
      ref={root}
      onKeyDown={(event) => {
        if (event.key !== "Escape" || !open) return;
        event.stopPropagation();
        setOpen(false);
        trigger.current?.focus();
      }}
    >
      <button
        ref={trigger}
        type="button"
        className={`small${open ? " on" : ""}`}
        data-testid="open-shortcuts"
        aria-expanded={open}
        aria-haspopup="dialog"
        title="Keyboard shortcuts"
        onClick={() => setOpen((o) => !o)}
      >
        Keys
      </button>
      {open && (
        <div className="shortcuts-popover" role="dialog" aria-label="Keyboard shortcuts" data-testid="shortcuts-popover" tabIndex={-1} ref={popover}>
          <dl>
            {SHORTCUTS.map((s) => (
              <div key={s.keys}>
                <dt>
                  <kbd>{s.keys}</kbd>
                </dt>
                <dd>{s.does}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </div>
  );
}

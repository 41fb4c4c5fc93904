import { typeKey, type BarKey } from "../terminal/keys";

const KEYS: readonly { key: BarKey; text: string; label: string }[] = [
  { key: "escape", text: "Esc", label: "Escape" },
  { key: "tab", text: "Tab", label: "Tab" },
  { key: "ctrlC", text: "^C", label: "Control C (interrupt)" },
  { key: "left", text: "←", label: "Left arrow" },
  { key: "up", text: "↑", label: "Up arrow" },
  { key: "down", text: "↓", label: "Down arrow" },
  { key: "right", text: "→", label: "Right arrow" },
  { key: "enter", text: "⏎", label: "Enter" },
];

/** The phone's row of the keys its on-screen keyboard lacks, typed into the shown terminal. */
export function KeyBar({ sessionId }: { sessionId: string }) {
  return (
    <div className="key-bar" data-testid="key-bar" role="toolbar" aria-label="Terminal keys">
      {KEYS.map(({ key, text, label }) => (
        <button
          key={key}
          type="button"
          data-testid={`key-${key}`}
          aria-label={label}
          // Keeps the focus (and so the on-screen keyboard) in the terminal.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => typeKey(sessionId, key)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

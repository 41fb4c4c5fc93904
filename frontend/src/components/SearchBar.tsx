import { useEffect, useRef, useState } from "react";
import { existingTerminal } from "../terminal/registry";
import { Icon } from "./Icon";

const DECORATIONS = {
  matchBackground: "#3b4b2a",
  matchOverviewRuler: "#8fc973",
  activeMatchBackground: "#7a5d12",
  activeMatchColorOverviewRuler: "#e5c07b",
};

/** Find in a cell's terminal (scrollback included): Enter next, Shift+Enter previous, Esc closes. */
export function SearchBar({ sessionId, onClose }: { sessionId: string; onClose(): void }) {
  const [query, setQuery] = useState("");
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [results, setResults] = useState<{ index: number; count: number } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const handle = existingTerminal(sessionId);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  useEffect(() => {
    if (!handle) return;
    const subscription = handle.search.onDidChangeResults(({ resultIndex, resultCount }) =>
      setResults({ index: resultIndex, count: resultCount }),
    );
    return () => {
      subscription.dispose();
      handle.search.clearDecorations();
    };
  }, [handle]);

  const find = (backwards: boolean, incremental = false) => {
    if (!handle) return;
    if (!query) {
      handle.search.clearDecorations();
      setResults(null);
      return;
    }
    const options = { caseSensitive, incremental, decorations: DECORATIONS };
    if (backwards) handle.search.findPrevious(query, options);
    else handle.search.findNext(query, options);
  };

  // Search as you type.
  useEffect(() => {
    find(false, true);
  }, [query, caseSensitive]); // only these: `find` is a new function every render

  const close = () => {
    handle?.search.clearDecorations();
    onClose();
    handle?.focus();
  };

  return (
    <div className="searchbar" data-testid="search-bar">
      <input
        ref={input}
        data-testid="search-input"
        placeholder="Find"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            find(e.shiftKey);
          } else if (e.key === "Escape") {
            e.preventDefault();
            close();
          }
        }}
      />
      <span className="search-count" data-testid="search-count">
        {results && query ? (results.count === 0 ? "no match" : `${results.index + 1}/${results.count}`) : ""}
      </span>
      <button type="button" className={`icon${caseSensitive ? " on" : ""}`} aria-label="Match case" aria-pressed={caseSensitive} title="Match case" onClick={() => setCaseSensitive((c) => !c)}>
        Aa
      </button>
      <button type="button" className="icon" aria-label="Previous match" title="Previous (Shift+Enter)" onClick={() => find(true)}>
        <Icon name="up" />
      </button>
      <button type="button" className="icon" aria-label="Next match" title="Next (Enter)" onClick={() => find(false)}>
        <Icon name="down" />
      </button>
      <button type="button" className="icon" aria-label="Close the search" title="Close (Esc)" onClick={close}>
        <Icon name="close" />
      </button>
    </div>
  );
}

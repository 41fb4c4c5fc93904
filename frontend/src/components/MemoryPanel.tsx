import { useEffect, useState } from "react";
import { request } from "../api";
import type { MemoryEntry } from "../generated/MemoryEntry";
import type { MemoryHit } from "../generated/MemoryHit";
import type { MemoryType } from "../generated/MemoryType";
import { refreshKnowledge, useKnowledge } from "../state/knowledge";
import { ErrorNotice } from "./ErrorNotice";
import { MemoryEditor } from "./MemoryEditor";
import { ProblemList } from "./ProblemList";

/** What the editor shows: an entry (by slug, read when opened), a new one, or nothing. */
type Open = { kind: "entry"; entry: MemoryEntry } | { kind: "new" } | null;

/**
 * The project memory (`.ideai/memory`): every entry with its type, hook, writer and time, most
 * useful first; a search over titles, hooks and bodies; an entry opened to read, edit or
 * delete; a new entry.
 */
export function MemoryPanel({ hidden, newSeq }: { hidden: boolean; newSeq: number }) {
  const { value: view, error: listError } = useKnowledge("memory");
  // Read again each time the view is shown: a memory file edited by hand publishes nothing.
  useEffect(() => {
    if (!hidden) refreshKnowledge("memory");
  }, [hidden]);
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<MemoryHit[] | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (newSeq > 0) setOpen({ kind: "new" });
  }, [newSeq]);

  // Searched as the user types (after a pause), and again when the entries change.
  useEffect(() => {
    const words = query.trim();
    if (words === "") {
      setHits(null);
      return;
    }
    let cancelled = false;
    const timer = setTimeout(() => {
      request("searchMemory", { query: words, limit: 20 })
        .then((found) => !cancelled && setHits(found))
        .catch((e: unknown) => !cancelled && setError(e));
    }, 200);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [query, view]);

  const show = async (slug: string) => {
    setError(null);
    try {
      setOpen({ kind: "entry", entry: await request("readMemory", { slug }) });
    } catch (e) {
      setError(e);
    }
  };

  const entries = view?.entries ?? [];
  return (
    <section className="shared-view memory-panel" data-testid="memory-panel" hidden={hidden}>
      <div className="panel-header">
        <span className="panel-title">Memory</span>
        <span className="panel-count">{entries.length}</span>
        <span className="spacer" />
        <button type="button" className="small" data-testid="memory-refresh" title="Read the files again" onClick={() => refreshKnowledge("memory")}>
          Reload
        </button>
        <button type="button" className="small primary" data-testid="memory-new" onClick={() => setOpen({ kind: "new" })}>
          + New
        </button>
      </div>
      <p className="shared-note">Agents recall these at each launch and keep them with idea_memory_write.</p>
      {listError !== null && <ErrorNotice error={listError} testId="memory-list-error" />}
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="memory-panel-error" />}
      {open && (
        <MemoryEditor
          key={open.kind === "entry" ? open.entry.slug : "new"}
          entry={open.kind === "entry" ? open.entry : null}
          onDone={(saved) => setOpen(saved ? { kind: "entry", entry: saved } : null)}
        />
      )}
      <input
        type="search"
        className="memory-search"
        data-testid="memory-search"
        value={query}
        placeholder="Search the memory"
        aria-label="Search the memory"
        onChange={(e) => setQuery(e.target.value)}
      />
      <ul className="shared-list" data-testid="memory-list">
        {hits
          ? hits.map((hit) => (
              <MemoryRow key={hit.slug} title={hit.title} type={hit.type} line={hit.excerpt || hit.hook} selected={isOpen(open, hit.slug)} onOpen={() => void show(hit.slug)} />
            ))
          : entries.map((entry) => (
              <MemoryRow
                key={entry.slug}
                title={entry.title}
                type={entry.type}
                line={entry.hook}
                meta={written(entry)}
                selected={isOpen(open, entry.slug)}
                onOpen={() => void show(entry.slug)}
              />
            ))}
        {hits?.length === 0 && <li className="muted">Nothing matches.</li>}
        {!hits && view && entries.length === 0 && <li className="muted">No memory yet.</li>}
      </ul>
      {view && <ProblemList problems={view.problems} testId="memory-problems" what="could not be read" />}
    </section>
  );
}

function MemoryRow(props: { title: string; type: MemoryType; line: string; meta?: string; selected: boolean; onOpen(): void }) {
  return (
    <li className={`memory-row${props.selected ? " selected" : ""}`} data-testid="memory-row" data-title={props.title}>
      <button type="button" className="memory-open" onClick={props.onOpen}>
        <span className="memory-title">
          <strong>{props.title}</strong> <span className={`badge memory-type memory-${props.type}`}>{props.type}</span>
        </span>
        <span className="memory-hook">{props.line}</span>
        {props.meta && <span className="memory-meta">{props.meta}</span>}
      </button>
    </li>
  );
}

/** "Ada · 12/05/2026, 14:02": who wrote it last, and when. */
function written(entry: MemoryEntry): string | undefined {
  const when = entry.updatedAt ? new Date(entry.updatedAt * 1000).toLocaleString() : null;
  return [entry.writer, when].filter(Boolean).join(" · ") || undefined;
}

function isOpen(open: Open, slug: string): boolean {
  return open?.kind === "entry" && open.entry.slug === slug;
}

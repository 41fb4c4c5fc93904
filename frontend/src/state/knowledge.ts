// What a project shares with every agent (docs/api.md, "Skills, memory, project tools and the
// shared context"): the skills, the memory and the project tools, each fetched once its view
// first asks, again after its `knowledgeChanged` (tools also after a run), after a reconnect,
// and whenever a reader asks (a hand edit of a skill or a memory file publishes nothing).

import { useEffect, useSyncExternalStore } from "react";
import { onConnection, onEvent, request } from "../api";
import type { MemoryView } from "../generated/MemoryView";
import type { SkillListing } from "../generated/SkillListing";
import type { ToolsView } from "../generated/ToolsView";

/** The Shared panel's views. */
export type SharedSection = "skills" | "memory" | "context" | "tools";

export const SHARED_SECTIONS: readonly SharedSection[] = ["skills", "memory", "context", "tools"];

/** The parts listed by one request each. */
export type ListedPart = "skills" | "memory" | "tools";

interface Listings {
  skills: SkillListing;
  memory: MemoryView;
  tools: ToolsView;
}

export interface Loaded<T> {
  /** `null` until the first answer. */
  value: T | null;
  /** The last fetch's error, if it failed. */
  error: unknown;
}

/** One listing: one fetch at a time; a refresh asked meanwhile fetches once more after it. */
class ListingStore<T> {
  private loaded: Loaded<T> = { value: null, error: null };
  private running = false;
  private again = false;
  /** Fetched at least once: a reconnect or an event fetches it again. */
  started = false;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly fetch: () => Promise<T>) {}

  refresh = (): void => {
    this.started = true;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void (async () => {
      do {
        this.again = false;
        try {
          this.loaded = { value: await this.fetch(), error: null };
        } catch (error) {
          this.loaded = { value: this.loaded.value, error };
        }
        for (const listener of this.listeners) listener();
      } while (this.again);
      this.running = false;
    })();
  };

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): Loaded<T> => this.loaded;
}

const stores: { [P in ListedPart]: ListingStore<Listings[P]> } = {
  skills: new ListingStore(() => request("listSkills")),
  memory: new ListingStore(() => request("listMemory")),
  tools: new ListingStore(() => request("listTools")),
};

let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  const again = (part: ListedPart) => {
    if (stores[part].started) stores[part].refresh();
  };
  onEvent((event) => {
    if (event.type === "knowledgeChanged" && event.part !== "context" && event.part !== "templates") again(event.part);
    if (event.type === "toolRan" || event.type === "toolApprovalResolved") again("tools");
  });
  onConnection((state) => {
    if (state === "open") for (const part of Object.keys(stores) as ListedPart[]) again(part);
  });
}

/** Reads `part` again now (the Refresh buttons, and after a change the UI made itself). */
export function refreshKnowledge(part: ListedPart): void {
  stores[part].refresh();
}

/** One listing, fetched on first use and kept current. */
export function useKnowledge<P extends ListedPart>(part: P): Loaded<Listings[P]> {
  const store: ListingStore<Listings[P]> = stores[part];
  useEffect(() => {
    listen();
    if (!store.started) store.refresh();
  }, [store]);
  return useSyncExternalStore(store.subscribe, store.snapshot);
}

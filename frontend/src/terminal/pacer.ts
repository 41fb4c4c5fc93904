// Terminal output paced to the display (docs/many-agents.md). xterm.js parses each write in a
// task of its own, up to 12 ms a terminal, and redraws every terminal written to in a frame:
// with 23 terminals flooding, the page spent whole frames parsing and drawing, and a keystroke
// waited behind all of them. Here every terminal has at most one write in xterm at a time, and
// each display frame serves a few of the waiting terminals in turn, out of one page-wide byte
// budget; what waits stays unacknowledged, so the server's flow control holds the programs
// back. Small output into a terminal with nothing waiting (an echo, a prompt) is written at
// once, and a terminal the user just typed into is served first, in full.
//
// A resize waits its turn in the same queue (`after`): output the program printed before it is
// parsed at the old size, as the server's terminal model parsed it, so that a replay drawn at
// one size is never parsed at another and the page and the model reflow the same lines.

/** A terminal whose output is paced. */
export interface Paced {
  /** Hands `bytes` to xterm; `parsed` once it has parsed them. */
  write(bytes: Uint8Array, parsed: () => void): void;
  /** Drops the backlog and shows what the terminal shows now (a replay of its screen). */
  skip(): void;
}

/** Bytes written at once when nothing waits (larger output waits for the next frame)... */
const IMMEDIATE_MAX = 4 * 1024;
/** ...into a terminal that the user just typed into, or whose output is a trickle (a flood
 *  comes in small frames too, one per acknowledgement): below this many bytes a second,
 *  measured with a one-second half-life. */
const TRICKLE_BYTES_PER_S = 8 * 1024;
const RATE_HALF_LIFE_MS = 1000;
/** The page's parse budget per frame: it adapts between these to keep frames on time. */
const BUDGET_MIN = 16 * 1024;
const BUDGET_MAX = 512 * 1024;
const BUDGET_START = 96 * 1024;
/** Waiting terminals served per frame (each one served is redrawn): adapts between these. */
const SLOTS_MIN = 1;
const SLOTS_MAX = 6;
/** What an urgent terminal gets per frame, out of the budget. */
const URGENT_CHUNK = 128 * 1024;
/** A terminal stays urgent this long after the user typed into it (or its queue empties). */
const URGENT_MS = 3000;
/** A frame later than this shrinks the budget; one sooner than the second grows it. */
const LATE_FRAME_MS = 33;
const ON_TIME_MS = 20;
const ADAPT_EVERY_MS = 100;
/** When frames come late even with one terminal served per frame (drawing one costs more than
 *  a frame: software rendering, a slow machine), the others are served only every `gap` ms:
 *  it grows by this factor per late frame, up to the most, and shrinks when frames are on time. */
const GAP_GROWTH = 1.5;
const GAP_FIRST_MS = 16;
const GAP_MAX_MS = 1000;
/** A terminal the user types into with this much waiting is behind a flood: what waits is
 *  stale (Ctrl+C's prompt would come after all of it), and it skips to the terminal's screen
 *  as it is now (at most once per `SKIP_EVERY_MS`). Others never skip: the server's flow
 *  control holds their programs to the page's pace. */
const SKIP_AT = 16 * 1024;
const SKIP_EVERY_MS = 1000;
/** While the user types (a keystroke less than `TYPING_MS` ago), the terminals not typed into
 *  are served at most every `TYPING_GAP_MS`: their redraws then leave the page's main thread
 *  free for the echo. */
const TYPING_MS = 1000;
const TYPING_GAP_MS = 150;
/** A frame is ticked by this timer when the browser draws none (a page in the background). */
const FALLBACK_MS = 100;

/** Something to do once everything queued before it is parsed (a resize). */
type Action = () => void;

/** Tests under browser automation hold all output back (`window.__ideaHoldOutput`) to make a
 *  race with it certain. */
function held(): boolean {
  return typeof navigator !== "undefined" && navigator.webdriver === true && (window as { __ideaHoldOutput?: boolean }).__ideaHoldOutput === true;
}

interface Entry {
  /** Output waiting, with the actions due between its pieces. */
  chunks: (Uint8Array | Action)[];
  queued: number;
  /** A write is in xterm and not parsed yet. */
  writing: boolean;
  /** Served first until then (ms, `performance.now()`): the user typed into it. */
  urgentUntil: number;
  /** Bytes arrived, decaying with `RATE_HALF_LIFE_MS`, as of `arrivedAt` (ms). */
  rate: number;
  arrivedAt: number;
  /** When it last skipped its backlog (ms). */
  skippedAt: number;
}

class Pacer {
  private readonly entries = new Map<Paced, Entry>();
  private budget = BUDGET_START;
  private slots = SLOTS_MAX;
  /** Where the next frame's turn starts among the waiting terminals. */
  private turn = 0;
  /** Bytes written during the current frame. */
  private spent = 0;
  private frame = 0;
  private fallback: ReturnType<typeof setTimeout> | null = null;
  private lastTick = 0;
  /** The others wait at least this long between two frames that serve them (ms). */
  private gap = 0;
  private averageInterval = 16;
  private adaptedAt = 0;
  private othersServedAt = 0;
  /** When the user last typed into a terminal (ms). */
  private typedAt = -Infinity;

  /** Output arrived for `target`. */
  push(target: Paced, bytes: Uint8Array): void {
    const entry = this.entry(target);
    const now = performance.now();
    entry.rate = entry.rate * 2 ** (-(now - entry.arrivedAt) / RATE_HALF_LIFE_MS) + bytes.length;
    entry.arrivedAt = now;
    const urgent = entry.urgentUntil > now;
    if (!held() && (urgent || entry.rate < TRICKLE_BYTES_PER_S) && !entry.writing && entry.chunks.length === 0 && bytes.length <= IMMEDIATE_MAX && this.spent + bytes.length <= this.budget) {
      this.spent += bytes.length;
      this.hand(target, entry, bytes);
      return;
    }
    entry.chunks.push(bytes);
    entry.queued += bytes.length;
    if (urgent && this.skipIfBehind(target, entry, now)) return;
    this.schedule();
  }

  /** Runs `action` once the output `target` received so far is parsed (at once if none waits). */
  after(target: Paced, action: Action): void {
    const entry = this.entry(target);
    if (!entry.writing && entry.chunks.length === 0) {
      action();
      return;
    }
    entry.chunks.push(action);
  }

  /** Bytes arrived for `target` and not yet handed to xterm. */
  queued(target: Paced): number {
    return this.entries.get(target)?.queued ?? 0;
  }

  /** The user typed into `target`: its output goes ahead of the others' for a while. */
  urge(target: Paced): void {
    const entry = this.entry(target);
    const now = performance.now();
    entry.urgentUntil = now + URGENT_MS;
    this.typedAt = now;
    this.skipIfBehind(target, entry, now);
  }

  /** Skips `target`'s backlog when it is far behind (see `SKIP_AT`); whether it did. */
  private skipIfBehind(target: Paced, entry: Entry, now: number): boolean {
    if (entry.queued <= SKIP_AT || now - entry.skippedAt <= SKIP_EVERY_MS) return false;
    entry.skippedAt = now;
    target.skip(); // drops what waits
    return true;
  }

  /** Drops what waits for `target` (its output is replaced by a fresh replay); the actions
   *  that waited run now, in order. */
  drop(target: Paced): void {
    const entry = this.entries.get(target);
    if (!entry) return;
    const actions = entry.chunks.filter((chunk): chunk is Action => typeof chunk === "function");
    entry.chunks = [];
    entry.queued = 0;
    for (const action of actions) action();
  }

  /** How the pacer has adapted to the page's load (benchmarks read it). */
  stats(): { budget: number; slots: number; gapMs: number; waiting: number } {
    const waiting = [...this.entries.values()].filter((entry) => entry.queued > 0).length;
    return { budget: this.budget, slots: this.slots, gapMs: this.gap, waiting };
  }

  /** Forgets `target` (disposed). */
  forget(target: Paced): void {
    this.entries.delete(target);
  }

  private entry(target: Paced): Entry {
    let entry = this.entries.get(target);
    if (!entry) {
      entry = { chunks: [], queued: 0, writing: false, urgentUntil: 0, rate: 0, arrivedAt: 0, skippedAt: -Infinity };
      this.entries.set(target, entry);
    }
    return entry;
  }

  private hand(target: Paced, entry: Entry, bytes: Uint8Array): void {
    entry.writing = true;
    target.write(bytes, () => {
      entry.writing = false;
      runDue(entry);
      if (entry.queued > 0) this.schedule();
    });
  }

  private schedule(): void {
    if (this.frame || this.fallback) return;
    this.frame = requestAnimationFrame(() => this.tick());
    this.fallback = setTimeout(() => this.tick(), FALLBACK_MS);
  }

  private tick(): void {
    cancelAnimationFrame(this.frame);
    if (this.fallback) clearTimeout(this.fallback);
    this.frame = 0;
    this.fallback = null;
    if (held()) {
      this.schedule();
      return;
    }
    const now = performance.now();
    this.adapt(now);
    this.spent = 0;
    for (const entry of this.entries.values()) if (!entry.writing) runDue(entry);
    const waiting = [...this.entries].filter(([, entry]) => entry.queued > 0 && !entry.writing);
    const urgent = waiting.filter(([, entry]) => entry.urgentUntil > now);
    for (const [target, entry] of urgent) {
      const bytes = take(entry, URGENT_CHUNK);
      this.spent += bytes.length;
      if (entry.queued === 0) entry.urgentUntil = 0;
      this.hand(target, entry, bytes);
    }
    // The others in turn, a few a frame: each gets a slot's share of what the budget has left.
    const others = waiting.filter(([, entry]) => !entry.writing && entry.queued > 0);
    const gap = now - this.typedAt < TYPING_MS ? Math.max(this.gap, TYPING_GAP_MS) : this.gap;
    const due = now - this.othersServedAt >= gap;
    const served = due ? Math.min(this.slots, others.length) : 0;
    if (served > 0) this.othersServedAt = now;
    const share = Math.max(1024, Math.floor((this.budget - this.spent) / Math.max(1, served)));
    for (let i = 0; i < served; i++) {
      const [target, entry] = others[(this.turn + i) % others.length];
      const bytes = take(entry, share);
      this.spent += bytes.length;
      this.hand(target, entry, bytes);
    }
    this.turn = others.length ? (this.turn + served) % others.length : 0;
    if ([...this.entries.values()].some((entry) => entry.queued > 0)) this.schedule();
  }

  /** Shrinks the budget when frames come late (the page is busy), grows it when on time:
   *  judged on the frames' average interval, and changed at most once per `ADAPT_EVERY_MS`
   *  (frame by frame, a late frame and an on-time one undo each other). */
  private adapt(now: number): void {
    const interval = now - this.lastTick;
    this.lastTick = now;
    // Only consecutive frames of a flood say anything about the page's load.
    if (interval > 4 * FALLBACK_MS) return;
    this.averageInterval += (interval - this.averageInterval) * 0.2;
    if (now - this.adaptedAt < ADAPT_EVERY_MS) return;
    this.adaptedAt = now;
    if (this.averageInterval > LATE_FRAME_MS) {
      this.budget = Math.max(BUDGET_MIN, Math.floor(this.budget * 0.75));
      if (this.slots > SLOTS_MIN) this.slots -= 1;
      else this.gap = Math.min(GAP_MAX_MS, Math.max(GAP_FIRST_MS, this.gap * GAP_GROWTH));
    } else if (this.averageInterval < ON_TIME_MS) {
      this.budget = Math.min(BUDGET_MAX, Math.floor(this.budget * 1.1));
      if (this.gap > 0) this.gap = this.gap < GAP_FIRST_MS ? 0 : this.gap * 0.8;
      else this.slots = Math.min(SLOTS_MAX, this.slots + 1);
    }
  }

}

/** Runs the actions at the front of `entry`'s queue (nothing of its output is in xterm). */
function runDue(entry: Entry): void {
  while (!entry.writing && typeof entry.chunks[0] === "function") (entry.chunks.shift() as Action)();
}

/** Takes up to `limit` bytes from the front of `entry`'s queue (which starts with bytes), as
 *  one array, up to the next action. */
function take(entry: Entry, limit: number): Uint8Array {
  const first = entry.chunks[0] as Uint8Array;
  const second = entry.chunks[1];
  if (first.length >= limit || !(second instanceof Uint8Array)) {
    const bytes = first.length > limit ? first.subarray(0, limit) : first;
    if (first.length > limit) entry.chunks[0] = first.subarray(limit);
    else entry.chunks.shift();
    entry.queued -= bytes.length;
    return bytes;
  }
  let length = 0;
  let count = 0;
  for (let chunk = entry.chunks[count]; chunk instanceof Uint8Array && length + chunk.length <= limit; chunk = entry.chunks[++count]) length += chunk.length;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of entry.chunks.splice(0, count) as Uint8Array[]) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  entry.queued -= length;
  return bytes;
}

export const pacer = new Pacer();

// One live xterm.js terminal per session, kept alive outside React so its content survives
// layout tab switches, zoom and re-renders: a cell mounts the session's terminal by re-parenting
// its DOM element. Each terminal is attached to its session's output once, writes it with flow
// control (acknowledged after xterm has processed it) and sends keystrokes and size changes.
//
// Output nobody can see costs nothing (docs/many-agents.md): a terminal off screen (a hidden
// layout tab, a zoomed-out cell, scrolled away) detaches after a moment and gives back its WebGL
// context; shown again, it attaches anew and the server's replay draws its screen and
// scrollback. Output is written at the display's pace (`pacer.ts`), a terminal just typed into
// first.
//
// Several clients may show one session, which has one size (docs/terminal-path.md, "One size,
// many clients"): the session has the leading client's size, and every other client draws
// the terminal at that size inside its cell (scrolling, or with a margin) rather than at its
// own. Typing here makes this client lead.

import { rememberDistances, rememberedDistance } from "./scrollMemory";
import { FitAddon } from "@xterm/addon-fit";
import { SearchAddon } from "@xterm/addon-search";
import { Unicode11Addon } from "@xterm/addon-unicode11";
import { WebLinksAddon } from "@xterm/addon-web-links";
import { Terminal } from "@xterm/xterm";
import { attachTerminal, onEvent, sendInput, type TerminalAttachment } from "../api";
import type { ReplayScope } from "../generated/ReplayScope";
import type { SharedSize } from "../generated/SharedSize";
import { SHARED_SIZE_MIN } from "../generated/TerminalSizeBounds";
import { copyText, readText } from "./clipboard";
import { withinBounds } from "./measure";
import { pacer, type Paced } from "./pacer";
import { acquireWebgl, holdsWebgl, releaseWebgl, webglContexts, type WebglUser } from "./webglSlots";
import { TERMINAL_OPTIONS } from "./theme";

/** Bytes acknowledged at once at most this often (or as soon as this many are pending). */
const ACK_DELAY_MS = 10;
const ACK_EAGER_BYTES = 64 * 1024;
const FIT_REPORT_DELAY_MS = 80;
/** The pause in output taken as the end of the replay, before scrolling back. */
const RESTORE_QUIET_MS = 250;
/** Scroll back at the latest this long after the replay began (live output may never pause). */
const RESTORE_LATEST_MS = 3000;
/** A terminal off screen this long detaches (a quick tab switch there and back keeps it). */
const HIDE_DELAY_MS = 1000;
/** Full reset (RIS): written before a replay that replaces what the terminal shows. */
const RESET = new Uint8Array([0x1b, 0x63]);
/** A reset still owed this long after the answer (no replay came) is written alone. */
const RESET_LATEST_MS = 100;

type Size = { rows: number; cols: number };

/** How this client shows the terminal: at the session's size, given by this client or not. */
export interface Sizing {
  rows: number;
  cols: number;
  /** Another client leads: this one shows the session at that client's size. */
  borrowed: boolean;
}

/** After a skip, output quiet this long brings the whole replay (the scrollback) back. */
const MEND_AFTER_MS = 2000;

export class TerminalHandle implements Paced, WebglUser {
  readonly term: Terminal;
  readonly search: SearchAddon;
  private readonly fitAddon = new FitAddon();
  private readonly host: HTMLDivElement;
  /** Attached on first mount, once the terminal has a size the replay can be drawn for. */
  private attachment: TerminalAttachment | null = null;
  /** The terminal was fitted to a cell at least once (its size is the cell's, not a default). */
  private fitted = false;
  private readonly searchListeners = new Set<() => void>();
  private readonly titleListeners = new Set<(title: string | null) => void>();
  private readonly exitedInputListeners = new Set<(data: string) => void>();
  /** The title the program set with OSC 0 or 2 (empty resets it). */
  private processTitle: string | null = null;
  private opened = false;
  /** On screen: mounted in a cell and intersecting the viewport. */
  private isShown = false;
  private visibility: IntersectionObserver | null = null;
  private hideTimer: ReturnType<typeof setTimeout> | null = null;
  /** Attached once before: a new attach replaces the terminal's content with the replay. */
  private everAttached = false;
  /** The next output is a replay that replaces what the terminal shows: reset first. */
  private resetOwed = false;
  private resetTimer: ReturnType<typeof setTimeout> | null = null;
  /** Counts attachments, so a write of an earlier one is not acknowledged to a later one. */
  private stream = 0;
  /** Bytes at the front of what waits that this client wrote itself (never acknowledged). */
  private ackExempt = 0;
  private pendingAck = 0;
  private ackTimer: ReturnType<typeof setTimeout> | null = null;
  private reportTimer: ReturnType<typeof setTimeout> | null = null;
  /** This cell's rows and columns (what the session would have if this client led). */
  private wanted: Size | null = null;
  /** The last cell size the server was told. */
  private reported: Size | null = null;
  /** This client's attachment id and the session's shared size, once answered. */
  private attachmentId: number | null = null;
  private shared: SharedSize | null = null;
  /** The attach was answered: output that came before it (the desktop's channel may be
   *  quicker than the answer) is held until then, since it says the replay's size. */
  private answered = false;
  private held: Uint8Array[] = [];
  /** Bytes of the replay still to come: a size change waits for the end of the replay, which
   *  was drawn before it. */
  private replayLeft = 0;
  /** The session's size once the replay is in (the latest an answer or event gave meanwhile). */
  private sizeAfterReplay: Size | null = null;
  private readonly sizingListeners = new Set<(sizing: Sizing) => void>();
  private copyTimer: ReturnType<typeof setTimeout> | null = null;
  private running = true;
  private disposed = false;
  /** Lines up from the bottom to scroll back to once the replay is drawn (0: stay at the bottom). */
  private restoreDistance: number;
  private restoreTimer: ReturnType<typeof setTimeout> | null = null;
  private replayStartedAt = 0;
  /** What the next attach replays: the screen alone when skipping a backlog. */
  private nextReplay: ReplayScope = "whole";
  /** Skipped output since the last whole replay: the scrollback misses it until a quiet
   *  moment brings the whole replay back. */
  private thin = false;
  private mendTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(readonly sessionId: string) {
    this.restoreDistance = rememberedDistance(sessionId);
    this.term = new Terminal(TERMINAL_OPTIONS);
    this.search = new SearchAddon({ highlightLimit: 2000 });
    this.term.loadAddon(this.fitAddon);
    this.term.loadAddon(this.search);
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = "11";
    this.term.loadAddon(
      new WebLinksAddon((event, uri) => {
        event.preventDefault();
        window.open(uri, "_blank", "noopener,noreferrer");
      }),
    );

    this.host = document.createElement("div");
    this.host.className = "terminal-host";
    this.host.dataset.sessionId = sessionId;

    this.term.onData((data) => {
      if (this.running) this.type(data);
      // Typing into an exited terminal is not dropped silently: the cell offers a restart.
      else for (const listener of [...this.exitedInputListeners]) listener(data);
    });
    this.term.onTitleChange((title) => {
      this.processTitle = title.trim() === "" ? null : title;
      for (const listener of [...this.titleListeners]) listener(this.processTitle);
    });
    this.term.onBinary((data) => {
      if (!this.running) return;
      const bytes = new Uint8Array(data.length);
      for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 0xff;
      this.type(bytes);
    });
    this.term.onSelectionChange(() => this.copySelectionSoon());
    this.term.attachCustomKeyEventHandler((event) => this.handleKey(event));
  }

  /**
   * Starts receiving the session's output. The attach carries this cell's size; the answer
   * says the session's (this cell's when no other client leads), which the replay that
   * follows is drawn for (a wrapped line comes back wrapped where this terminal wraps it).
   */
  private attach(): void {
    if (this.attachment || this.disposed) return;
    listenForSharedSizes();
    if (this.everAttached) this.restartOutput();
    this.everAttached = true;
    if (this.nextReplay === "whole") this.thin = false;
    this.answered = false;
    this.held = [];
    this.replayLeft = 0;
    this.sizeAfterReplay = null;
    this.attachment = attachTerminal(this.sessionId, {
      onBytes: (bytes) => this.receive(bytes),
      // Re-attached after a reconnect: the server draws the terminal again from the start.
      onRestart: () => this.restartOutput(),
      size: () => {
        if (!this.fitted || !this.wanted) return null;
        // The attach tells the server this cell's size: no separate report of it.
        this.reported = this.wanted;
        return this.wanted;
      },
      replay: () => {
        const replay = this.nextReplay;
        this.nextReplay = "whole";
        return replay;
      },
      onAttached: (answer) => {
        this.attachmentId = answer.attachment;
        if (this.resetOwed) this.resetTimer ??= setTimeout(() => this.writeOwedReset(), RESET_LATEST_MS);
        // The replay is parsed at the size it was drawn at, then the terminal follows the
        // session (both in turn with the output, see `resizeTo`).
        this.resizeTo(answer.replaySize);
        this.answered = true;
        this.replayLeft = answer.replayBytes;
        for (const bytes of this.held.splice(0)) this.receive(bytes);
        this.applyShared(answer);
        // No replay to wait for (or all of it came with the answer): a size an event gave
        // before the answer (a later epoch than the answer's) applies now.
        if (this.replayLeft === 0) this.followAfterReplay();
        this.scheduleFitReport(); // the cell may have changed while the attach was served
      },
    });
  }

  /** Shows the terminal inside `container` (moving it from wherever it was). */
  mount(container: HTMLElement): void {
    if (this.disposed) return;
    if (this.host.parentElement !== container) container.appendChild(this.host);
    if (!this.opened) {
      this.term.open(this.host);
      this.opened = true;
    }
    this.fit();
    this.setShown(true);
    this.visibility ??= new IntersectionObserver((entries) => {
      const entry = entries.at(-1);
      if (entry && this.host.isConnected) this.setShown(entry.isIntersecting);
    });
    this.visibility.observe(this.host);
  }

  /** Takes the terminal out of `container` if it is still there (it stays alive). */
  unmount(container: HTMLElement): void {
    if (this.host.parentElement !== container) return;
    container.removeChild(this.host);
    this.visibility?.unobserve(this.host);
    this.setShown(false);
  }

  shown(): boolean {
    return this.isShown && !this.disposed;
  }

  /** On screen: attached, with a WebGL context if one is free. Off screen: both let go soon. */
  private setShown(shown: boolean): void {
    this.isShown = shown;
    if (this.disposed) return;
    if (shown) {
      if (this.hideTimer) clearTimeout(this.hideTimer);
      this.hideTimer = null;
      this.attach();
      acquireWebgl(this);
    } else {
      this.hideTimer ??= setTimeout(() => this.hide(), HIDE_DELAY_MS);
    }
  }

  /** Detaches from the output (the server keeps the screen for the replay) and frees WebGL. */
  private hide(): void {
    this.hideTimer = null;
    if (this.isShown || this.disposed) return;
    releaseWebgl(this);
    if (!this.attachment) return;
    // Shown again, the replay's scrollback comes back scrolled where the user left it.
    if (this.restoreDistance === 0) this.restoreDistance = this.distanceFromBottom();
    this.attachment.detach();
    this.attachment = null;
    this.attachmentId = null;
    this.shared = null;
    pacer.drop(this);
  }

  /**
   * The pacer found this terminal behind a flood: what waits is stale. Attaches anew with a
   * replay of the screen alone (a few KiB, where the backlog may be hundreds), so the terminal
   * shows what the program shows now; its scrollback misses what was skipped until output
   * pauses and the whole replay is drawn again (`mend`).
   */
  skip(): void {
    if (!this.attachment || this.disposed) return;
    this.attachment.detach();
    this.attachment = null;
    this.nextReplay = "screen";
    this.thin = true;
    this.skips++;
    this.attach();
  }

  /** How many times the terminal skipped a backlog (tests and benchmarks read it). */
  skips = 0;

  /** Output paused after a skip: the whole replay brings the skipped scrollback back. */
  private mend(): void {
    this.mendTimer = null;
    if (!this.thin || !this.attachment || this.disposed || pacer.queued(this) > 0) return;
    this.thin = false;
    if (this.restoreDistance === 0) this.restoreDistance = this.distanceFromBottom();
    this.attachment.detach();
    this.attachment = null;
    this.attach();
  }

  /** Whether the terminal receives output now, and draws with WebGL (tests read these). */
  state(): { attached: boolean; webgl: boolean; queued: number; skips: number; thin: boolean; sessionSize: Size | null } {
    return {
      attached: this.attachment !== null,
      webgl: holdsWebgl(this),
      queued: pacer.queued(this),
      skips: this.skips,
      thin: this.thin,
      // The size the server has for the session (its PTY's), as it last said.
      sessionSize: this.shared?.size ?? null,
    };
  }

  /**
   * Measures the cell and tells the server (debounced). While this client leads (or nobody
   * does yet) the terminal takes the cell's size at once; otherwise it keeps the session's.
   */
  fit(): void {
    if (!this.opened || !this.host.isConnected || this.host.clientWidth < 10 || this.host.clientHeight < 10) return;
    const dims = this.fitAddon.proposeDimensions();
    if (!dims || !Number.isFinite(dims.cols) || !Number.isFinite(dims.rows)) return;
    // The server refuses a size out of its bound: a huge or tiny cell gets the nearest one.
    this.wanted = withinBounds(dims.rows, dims.cols);
    this.fitted = true;
    if (this.leading()) this.resizeTo(atLeastSharedMin(this.wanted));
    else this.showSizing();
    this.scheduleFitReport();
  }

  /** This cell's rows and columns (the terminal's own until it was fitted). */
  cellSize(): Size {
    return this.wanted ?? { rows: this.term.rows, cols: this.term.cols };
  }

  /** Makes this client lead the session's size (the user typed here, or asked to fit it). */
  fitHere(): void {
    if (!this.attachment || !this.running) return;
    if (!this.leading() && this.shared) {
      // The server's answer confirms it with a later epoch; meanwhile draw at this cell.
      this.shared = { ...this.shared, lead: this.attachmentId };
      if (this.wanted) this.resizeTo(atLeastSharedMin(this.wanted));
    }
    this.attachment.focus();
  }

  /** Calls `listener` with how the terminal is sized now and whenever that changes. */
  onSizing(listener: (sizing: Sizing) => void): () => void {
    this.sizingListeners.add(listener);
    listener(this.sizing());
    return () => this.sizingListeners.delete(listener);
  }

  /** The session's size changed, or which client leads it (an answer or an event). */
  applyShared(shared: SharedSize): void {
    if (this.disposed || (this.shared && shared.epoch <= this.shared.epoch)) return;
    this.shared = shared;
    if (!this.answered || this.replayLeft > 0) this.sizeAfterReplay = shared.size;
    else this.resizeTo(shared.size);
  }

  private leading(): boolean {
    return !this.shared || this.shared.lead === null || this.shared.lead === this.attachmentId;
  }

  private type(data: string | Uint8Array): void {
    if (!this.leading()) this.fitHere();
    sendInput(this.sessionId, data);
    // What the program prints next (an echo, Ctrl+C's prompt) goes ahead of other terminals.
    pacer.urge(this);
  }

  /** The output starts over with a replay: drop what waits and reset when the replay comes. */
  private restartOutput(): void {
    this.stream++;
    pacer.drop(this);
    this.pendingAck = 0;
    this.ackExempt = 0;
    this.resetOwed = true;
    this.shared = null;
    this.attachmentId = null;
    this.answered = false;
    this.held = [];
    this.replayLeft = 0;
    this.sizeAfterReplay = null;
  }

  private writeOwedReset(): void {
    this.resetTimer = null;
    if (!this.resetOwed || this.disposed) return;
    this.resetOwed = false;
    this.ackExempt += RESET.length;
    pacer.push(this, RESET);
  }

  /** Resizes the terminal once the output received so far is parsed: that output was printed
   *  for the old size, and the server's model parsed it at that size before resizing. */
  private resizeTo({ rows, cols }: Size): void {
    pacer.after(this, () => {
      if (this.disposed) return;
      if (cols !== this.term.cols || rows !== this.term.rows) this.term.resize(cols, rows);
      this.showSizing();
    });
  }

  private sizing(): Sizing {
    const { rows, cols } = this.term;
    const wanted = this.wanted;
    const borrowed = !this.leading() && wanted !== null && (wanted.rows !== rows || wanted.cols !== cols);
    return { rows, cols, borrowed };
  }

  /** Lets the terminal scroll inside a cell smaller than it, and tells the listeners. */
  private showSizing(): void {
    const wanted = this.wanted;
    const overflowing = wanted !== null && (this.term.cols > wanted.cols || this.term.rows > wanted.rows);
    this.host.classList.toggle("terminal-overflowing", overflowing);
    const sizing = this.sizing();
    for (const listener of [...this.sizingListeners]) listener(sizing);
  }

  focus(): void {
    this.term.focus();
  }

  /** Whether the session's process is alive (no input or resize is sent to an exited one). */
  setRunning(running: boolean): void {
    this.running = running;
    if (running) this.scheduleFitReport();
  }

  /** Called when the user asks to search this terminal (Ctrl+Shift+F inside it). */
  onSearchRequest(listener: () => void): () => void {
    this.searchListeners.add(listener);
    return () => this.searchListeners.delete(listener);
  }

  /** Calls `listener` with the program's title now and whenever it sets another. */
  onTitle(listener: (title: string | null) => void): () => void {
    this.titleListeners.add(listener);
    listener(this.processTitle);
    return () => this.titleListeners.delete(listener);
  }

  /** Calls `listener` with what the user types while the process is not running. */
  onInputWhileExited(listener: (data: string) => void): () => void {
    this.exitedInputListeners.add(listener);
    return () => this.exitedInputListeners.delete(listener);
  }

  /** The visible text and scrollback, one string per line (tests and "copy all"). */
  text(): string {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? "");
    return lines.join("\n");
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const timer of [this.ackTimer, this.reportTimer, this.copyTimer, this.restoreTimer, this.hideTimer, this.resetTimer, this.mendTimer]) if (timer) clearTimeout(timer);
    this.attachment?.detach();
    this.visibility?.disconnect();
    releaseWebgl(this);
    pacer.forget(this);
    this.term.dispose();
    this.host.remove();
  }

  // --- output and flow control ------------------------------------------------------------

  /** When output last arrived (ms since the epoch; 0 before any). */
  lastOutputAt = 0;

  /** The last line of the screen that holds text (for the sessions overview). */
  lastLine(): string {
    const buffer = this.term.buffer.active;
    for (let i = buffer.length - 1; i >= 0; i--) {
      const text = buffer.getLine(i)?.translateToString(true).trim();
      if (text) return text;
    }
    return "";
  }

  /** Output of the current attachment: written at the display's pace. */
  private receive(bytes: Uint8Array): void {
    if (this.disposed) return;
    if (!this.answered) {
      this.held.push(bytes);
      return;
    }
    if (this.replayLeft > 0) {
      // The end of the replay: a size change that waited for it goes between.
      const replay = bytes.length > this.replayLeft ? bytes.subarray(0, this.replayLeft) : bytes;
      this.replayLeft -= replay.length;
      this.paceOutput(replay);
      if (this.replayLeft > 0) return;
      this.followAfterReplay();
      if (replay.length === bytes.length) return;
      bytes = bytes.subarray(replay.length);
    }
    this.paceOutput(bytes);
  }

  /** The replay is in: the terminal follows the session's size as it is now. */
  private followAfterReplay(): void {
    const size = this.sizeAfterReplay;
    this.sizeAfterReplay = null;
    if (size) this.resizeTo(size);
  }

  private paceOutput(bytes: Uint8Array): void {
    this.lastOutputAt = Date.now();
    if (this.thin) {
      if (this.mendTimer) clearTimeout(this.mendTimer);
      this.mendTimer = setTimeout(() => this.mend(), MEND_AFTER_MS);
    }
    if (this.resetOwed) {
      // The reset goes in the same write as the replay's first bytes: no blank frame between.
      this.resetOwed = false;
      const first = new Uint8Array(RESET.length + bytes.length);
      first.set(RESET);
      first.set(bytes, RESET.length);
      this.ackExempt += RESET.length;
      pacer.push(this, first);
      return;
    }
    pacer.push(this, bytes);
  }

  /** The pacer's write: acknowledged once xterm has parsed it (flow control). */
  write(bytes: Uint8Array, parsed: () => void): void {
    const stream = this.stream;
    // The reset this client wrote itself is at the front of the stream: not the server's bytes.
    const exempt = Math.min(this.ackExempt, bytes.length);
    this.ackExempt -= exempt;
    const owed = bytes.length - exempt;
    this.term.write(bytes, () => {
      parsed();
      if (stream !== this.stream || this.disposed) return;
      if (this.restoreDistance > 0) this.restoreScrollSoon();
      this.pendingAck += owed;
      if (this.pendingAck >= ACK_EAGER_BYTES) this.flushAck();
      else this.ackTimer ??= setTimeout(() => this.flushAck(), ACK_DELAY_MS);
    });
  }

  /** How many lines the viewport is above the bottom of the scrollback. */
  distanceFromBottom(): number {
    const buffer = this.term.buffer.active;
    return buffer.type === "normal" ? buffer.baseY - buffer.viewportY : 0;
  }

  /**
   * Scrolls back to the remembered place once the replay is drawn: when the output pauses
   * (the replay comes as one burst), or after a while under steady live output.
   */
  private restoreScrollSoon(): void {
    const now = Date.now();
    this.replayStartedAt ||= now;
    if (this.restoreTimer) clearTimeout(this.restoreTimer);
    const restore = () => {
      this.restoreTimer = null;
      const buffer = this.term.buffer.active;
      if (this.restoreDistance > 0 && buffer.type === "normal") this.term.scrollToLine(Math.max(0, buffer.baseY - this.restoreDistance));
      this.restoreDistance = 0;
    };
    if (now - this.replayStartedAt > RESTORE_LATEST_MS) restore();
    else this.restoreTimer = setTimeout(restore, RESTORE_QUIET_MS);
  }

  private flushAck(): void {
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = null;
    if (this.pendingAck > 0 && !this.disposed) this.attachment?.ack(this.pendingAck);
    this.pendingAck = 0;
  }

  private scheduleFitReport(): void {
    if (this.reportTimer) clearTimeout(this.reportTimer);
    this.reportTimer = setTimeout(() => {
      this.reportTimer = null;
      const wanted = this.wanted;
      if (!wanted || !this.running || !this.attachment || this.attachmentId === null) return;
      if (this.reported?.rows === wanted.rows && this.reported.cols === wanted.cols) return;
      this.reported = wanted;
      this.attachment.fit(wanted);
    }, FIT_REPORT_DELAY_MS);
  }

  // --- keys and clipboard -----------------------------------------------------------------

  /** Returns false for the keys the terminal must not send to the PTY. */
  private handleKey(event: KeyboardEvent): boolean {
    const ctrlShift = event.ctrlKey && event.shiftKey && !event.altKey && !event.metaKey;
    if (ctrlShift && (event.code === "KeyC" || event.code === "KeyV" || event.code === "KeyF")) {
      if (event.type === "keydown") {
        event.preventDefault();
        if (event.code === "KeyC") void copyText(this.term.getSelection(), { fallback: true });
        else if (event.code === "KeyV") void this.pasteFromClipboard();
        else for (const listener of [...this.searchListeners]) listener();
      }
      return false;
    }
    // Alt+Arrow moves between cells (handled by the workspace), never sent to the PTY.
    if (event.altKey && !event.ctrlKey && !event.metaKey && event.key.startsWith("Arrow")) return false;
    // Ctrl+Shift+Enter toggles zoom (handled by the workspace).
    if (ctrlShift && event.key === "Enter") return false;
    return true;
  }

  private async pasteFromClipboard(): Promise<void> {
    const text = await readText();
    if (text) this.term.paste(text);
  }

  private copySelectionSoon(): void {
    if (this.copyTimer) clearTimeout(this.copyTimer);
    this.copyTimer = setTimeout(() => {
      this.copyTimer = null;
      if (this.term.hasSelection()) void copyText(this.term.getSelection(), { fallback: false });
    }, 150);
  }
}

const terminals = new Map<string, TerminalHandle>();

function atLeastSharedMin({ rows, cols }: Size): Size {
  return { rows: Math.max(rows, SHARED_SIZE_MIN.rows), cols: Math.max(cols, SHARED_SIZE_MIN.cols) };
}

let listeningForSharedSizes = false;

/** One listener for every terminal's size changes (not one per terminal). */
function listenForSharedSizes(): void {
  if (listeningForSharedSizes) return;
  listeningForSharedSizes = true;
  onEvent((event) => {
    if (event.type === "terminalResized") terminals.get(event.sessionId)?.applyShared(event);
  });
}

declare global {
  interface Window {
    /** Session id → xterm Terminal; set only under browser automation, for the e2e tests. */
    __ideaTerminals?: Record<string, Terminal>;
    /** Whether a session's terminal is attached and draws with WebGL, and how many WebGL
     * contexts terminals hold (browser automation only, for the e2e tests). */
    __ideaTerminalState?: (sessionId: string) => ReturnType<TerminalHandle["state"]> | null;
    __ideaWebglContexts?: () => number;
    __ideaPacer?: () => ReturnType<typeof pacer.stats> & { skips: number };
    /** Skips a terminal's backlog as the pacer does for one far behind (e2e tests). */
    __ideaSkipTerminal?: (sessionId: string) => void;
  }
}

// A reload (or closing the tab) remembers how far back each terminal was scrolled.
if (typeof window !== "undefined") {
  window.addEventListener("pagehide", () => rememberDistances([...terminals].map(([id, handle]) => [id, handle.distanceFromBottom()])));
}

const exposeForTests = typeof navigator !== "undefined" && navigator.webdriver === true;
if (exposeForTests) {
  window.__ideaTerminalState = (sessionId) => terminals.get(sessionId)?.state() ?? null;
  window.__ideaWebglContexts = webglContexts;
  window.__ideaSkipTerminal = (sessionId) => terminals.get(sessionId)?.skip();
  window.__ideaPacer = () => ({ ...pacer.stats(), skips: [...terminals.values()].reduce((n, handle) => n + handle.skips, 0) });
}

/** The session's terminal, created (and attached to the output) on first use. */
export function terminalFor(sessionId: string): TerminalHandle {
  let handle = terminals.get(sessionId);
  if (!handle) {
    handle = new TerminalHandle(sessionId);
    terminals.set(sessionId, handle);
    if (exposeForTests) (window.__ideaTerminals ??= {})[sessionId] = handle.term;
  }
  return handle;
}

export function existingTerminal(sessionId: string): TerminalHandle | undefined {
  return terminals.get(sessionId);
}

/** Disposes the terminals of sessions that are gone (cell closed, session replaced). */
export function retainTerminals(live: ReadonlySet<string>): void {
  for (const [sessionId, handle] of terminals) {
    if (live.has(sessionId)) continue;
    handle.dispose();
    terminals.delete(sessionId);
    if (window.__ideaTerminals) delete window.__ideaTerminals[sessionId];
  }
}

import { useCallback, useEffect, useRef, useState } from "react";
import { notifier } from "../api";
import { clickTarget, limitedIn, needingYou, notable, noteFor, titleWithCount } from "../state/attention";
import type { Agent, Layouts, SessionInfo } from "../types";

const BASE_TITLE = "IdeA";
const OPT_IN_KEY = "idea.notifications";

/** Whether notifications are shown, and the opt-in that asks for them (browser only: the
 *  desktop app's native notifications are on from the start). */
export interface NotificationsOptIn {
  state: "unsupported" | "off" | "on" | "denied";
  enable(): void;
}

/**
 * Attention to agents that need the user: the page title and the favicon carry the count,
 * and a notification fires when an agent that is not in view needs the user, finishes its
 * turn or fails; clicking it goes to that agent's cell (`goToCell`, any tab), or nowhere when
 * the cell is gone. The same code in the browser and the desktop app: only `notifier()`
 * differs.
 */
export function useAttention(
  sessions: Map<string, SessionInfo>,
  agents: Agent[],
  layouts: Layouts | null,
  inView: (session: SessionInfo) => boolean,
  goToCell: (layoutId: string, nodeId: string) => void,
): NotificationsOptIn {
  const count = needingYou(sessions.values()).length;
  const limited = limitedIn(sessions.values());
  useEffect(() => {
    document.title = titleWithCount(BASE_TITLE, count, limited);
    setFavicon(count);
  }, [count, limited]);

  const notes = notifier();
  const [state, setState] = useState<NotificationsOptIn["state"]>(() => {
    const permission = notes.permission();
    if (permission === "unsupported" || permission === "denied") return permission;
    const optedIn = !notes.needsOptIn || localStorage.getItem(OPT_IN_KEY) === "on";
    return permission === "granted" && optedIn ? "on" : "off";
  });
  const enable = useCallback(() => {
    void notes.requestPermission().then((permission) => {
      if (permission === "granted") localStorage.setItem(OPT_IN_KEY, "on");
      setState(permission === "granted" ? "on" : permission === "default" ? "off" : permission);
    });
  }, [notes]);

  const seen = useRef(new Map<string, SessionInfo["state"]>());
  const latest = useRef({ sessions, agents, layouts, inView, goToCell });
  latest.current = { sessions, agents, layouts, inView, goToCell };

  // A click names the session; where its cell is is looked up now, not when it was shown.
  useEffect(
    () =>
      notes.onClick((sessionId) => {
        const cell = clickTarget(sessionId, latest.current.sessions, latest.current.layouts);
        if (cell) latest.current.goToCell(cell.layoutId, cell.nodeId);
      }),
    [notes],
  );

  useEffect(() => {
    const previous = seen.current;
    const next = new Map<string, SessionInfo["state"]>();
    for (const session of sessions.values()) {
      next.set(session.sessionId, session.state);
      const before = previous.get(session.sessionId);
      // A session seen for the first time is not news (a page load, a reconnect).
      if (before === undefined || !session.agentId || !notable(before, session.state)) continue;
      if (state !== "on" || latest.current.inView(session)) continue;
      notes.show(noteFor(session, latest.current.agents));
    }
    seen.current = next;
  }, [sessions, state, notes]);

  return { state, enable };
}

/** The favicon: IdeA's letter, with a red count when agents need the user. */
function setFavicon(count: number) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 32;
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.fillStyle = "#3b6fd8";
  ctx.fillRect(0, 0, 32, 32);
  ctx.fillStyle = "#fff";
  ctx.font = "bold 22px sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText("I", 16, 17);
  if (count > 0) {
    ctx.fillStyle = "#d32f2f";
    ctx.beginPath();
    ctx.arc(22, 10, 10, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#fff";
    ctx.font = "bold 14px sans-serif";
    ctx.fillText(count > 9 ? "9+" : String(count), 22, 11);
  }
  let link = document.querySelector<HTMLLinkElement>("link[rel='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  link.href = canvas.toDataURL("image/png");
  link.dataset.count = String(count);
}

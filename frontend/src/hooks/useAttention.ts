import { useCallback, useEffect, useRef, useState } from "react";
import { needingYou, notable, STATE_LABEL, titleWithCount } from "../state/attention";
import type { Agent, SessionInfo } from "../types";

const BASE_TITLE = "IdeA";
const OPT_IN_KEY = "idea.notifications";

/** Whether the browser may show notifications, and the opt-in that asks for it. */
export interface NotificationsOptIn {
  state: "unsupported" | "off" | "on" | "denied";
  enable(): void;
}

/**
 * Attention to agents that need the user: the page title and the favicon carry the count,
 * and a notification fires when an agent that is not in view needs the user, finishes its
 * turn or fails; clicking it goes to that agent's cell (`goToCell`, any tab).
 */
export function useAttention(
  sessions: Map<string, SessionInfo>,
  agents: Agent[],
  inView: (session: SessionInfo) => boolean,
  goToCell: (layoutId: string, nodeId: string) => void,
): NotificationsOptIn {
  const count = needingYou(sessions.values()).length;
  useEffect(() => {
    document.title = titleWithCount(BASE_TITLE, count);
    setFavicon(count);
  }, [count]);

  const supported = typeof Notification !== "undefined";
  const [state, setState] = useState<NotificationsOptIn["state"]>(() => {
    if (!supported) return "unsupported";
    if (Notification.permission === "denied") return "denied";
    return Notification.permission === "granted" && localStorage.getItem(OPT_IN_KEY) === "on" ? "on" : "off";
  });
  const enable = useCallback(() => {
    if (!supported) return;
    void Notification.requestPermission().then((permission) => {
      if (permission === "granted") localStorage.setItem(OPT_IN_KEY, "on");
      setState(permission === "granted" ? "on" : permission === "denied" ? "denied" : "off");
    });
  }, [supported]);

  const seen = useRef(new Map<string, SessionInfo["state"]>());
  const latest = useRef({ agents, inView, goToCell });
  latest.current = { agents, inView, goToCell };
  useEffect(() => {
    const previous = seen.current;
    const next = new Map<string, SessionInfo["state"]>();
    for (const session of sessions.values()) {
      next.set(session.sessionId, session.state);
      const before = previous.get(session.sessionId);
      // A session seen for the first time is not news (a page load, a reconnect).
      if (before === undefined || !session.agentId || !notable(before, session.state)) continue;
      if (state !== "on" || latest.current.inView(session)) continue;
      const name = latest.current.agents.find((a) => a.agentId === session.agentId)?.name ?? "An agent";
      const body = session.stateReason ?? STATE_LABEL[session.state];
      const title = session.state === "needsYou" ? `${name} needs you` : session.state === "failed" ? `${name} failed` : `${name} is done`;
      const note = new Notification(title, { body, tag: session.sessionId });
      const cell = session.cell;
      note.onclick = () => {
        window.focus();
        if (cell) latest.current.goToCell(cell.layoutId, cell.nodeId);
        note.close();
      };
    }
    seen.current = next;
  }, [sessions, state]);

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

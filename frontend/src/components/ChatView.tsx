import { useEffect, useRef, useState, type FormEvent } from "react";
import { useChat } from "../hooks/useChat";
import { chatItems, type ChatItem } from "../state/chat";
import { isActive, limitWait } from "../state/requests";
import type { Agent } from "../types";

function Item({ item }: { item: ChatItem }) {
  switch (item.kind) {
    case "text":
      return <div className="chat-text" data-testid="chat-answer">{item.text}</div>;
    case "tool":
      return (
        <div className="chat-tool" data-testid="chat-tool">
          <span className="chat-label">tool</span> {item.name} <code>{item.detail}</code>
        </div>
      );
    case "result":
      return (
        <div className={`chat-tool${item.isError ? " chat-error" : ""}`}>
          <span className="chat-label">{item.isError ? "tool error" : "result"}</span> <code>{item.text}</code>
        </div>
      );
    case "usage":
      return (
        <div className="chat-usage" data-testid="chat-usage">
          {item.input} tokens in, {item.output} out
        </div>
      );
    case "notice":
      return <div className="chat-notice">{item.text}</div>;
  }
}

/**
 * A cell hosting a JSON-mode session with `agent`: the user's turns (messages, the agent's
 * answers, tool calls, usage) as they come, and an input box. Each message is one `askAgent`
 * turn as the user, in the agent's conversation with the user (the one its terminal cell and
 * the Ask form continue too).
 */
export function ChatView({ agent, onClose }: { agent: Agent; onClose(): void }) {
  const { turns, events, sending, send, cancel } = useChat(agent.agentId);
  const [message, setMessage] = useState("");
  const log = useRef<HTMLDivElement>(null);

  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [turns, events]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    if (!text) return;
    setMessage("");
    void send(text);
  };

  return (
    <div className="chat" data-testid="chat" data-agent-id={agent.agentId}>
      <div className="chat-bar">
        <span>Chat with {agent.name}</span>
        <button type="button" className="small" data-testid="chat-close" onClick={onClose}>
          Close chat
        </button>
      </div>
      <div className="chat-log" ref={log} role="log" aria-live="polite" aria-label={`Conversation with ${agent.name}`}>
        {turns.length === 0 && <p className="chat-empty">No messages yet.</p>}
        {turns.map((turn) => (
          <div key={turn.requestId} className="chat-turn" data-testid="chat-turn" data-request-id={turn.requestId} data-state={turn.state}>
            <div className="chat-user" data-testid="chat-question">
              <span className="chat-label">You</span> {turn.message}
            </div>
            {chatItems(events.get(turn.requestId) ?? [], turn.answer ?? null).map((item, i) => (
              <Item key={i} item={item} />
            ))}
            {isActive(turn.state) && (
              <div className="chat-notice" role="status" data-testid="chat-progress">
                {turn.state === "queued"
                  ? "waiting for its turn…"
                  : turn.state === "waitingForLimit"
                    ? `${limitWait(agent.name, turn.limitResetsAt)}: asked again then…`
                    : `${agent.name} is answering…`}{" "}
                <button type="button" className="link" data-testid="chat-cancel" onClick={() => void cancel(turn.requestId).catch(() => undefined)}>
                  Cancel
                </button>
              </div>
            )}
            {turn.error && (
              <div className="chat-notice chat-error" data-testid="chat-error" role="alert">
                {turn.error.message}
              </div>
            )}
          </div>
        ))}
      </div>
      <form className="chat-input" onSubmit={submit}>
        <textarea
          data-testid="chat-message"
          data-autofocus
          aria-label={`Message for ${agent.name}`}
          placeholder="Message (Enter sends, Shift+Enter for a new line)"
          rows={2}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) submit(e);
          }}
        />
        <button type="submit" className="small primary" data-testid="chat-send" disabled={!message.trim() || sending}>
          Send
        </button>
      </form>
    </div>
  );
}

import { useState, type FormEvent } from "react";
import { isApiError, request } from "../api";
import { useWorkspace } from "../state/workspace";

/** Asks an agent a question from the UI (`askAgent`, source `ui`); the request then shows in
 * the list below like any other, with its answer. Only agents whose profile has a JSON mode. */
export function AskForm() {
  const { data, reportError } = useWorkspace();
  // Only agents whose CLI is installed: an ask to another could only fail.
  const askable = data.agents.filter((a) => data.profilesById.get(a.profileId)?.structured && !data.missingProfiles.has(a.profileId));
  const [target, setTarget] = useState("");
  const [message, setMessage] = useState("");
  const chosen = askable.some((a) => a.agentId === target) ? target : (askable[0]?.agentId ?? "");

  if (askable.length === 0) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    if (!chosen || !text) return;
    setMessage("");
    // The answer arrives through `requestChanged`; only a failure is worth a toast here.
    request("askAgent", { target: chosen, message: text }).catch((error: unknown) => {
      if (!isApiError(error) || error.code !== "CANCELLED") reportError(error);
    });
  };

  return (
    <form className="ask-form" data-testid="ask-form" onSubmit={submit}>
      <label>
        <span>Ask</span>
        <select data-testid="ask-target" value={chosen} onChange={(e) => setTarget(e.target.value)}>
          {askable.map((a) => (
            <option key={a.agentId} value={a.agentId}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <textarea
        data-testid="ask-message"
        aria-label="Question for the agent"
        placeholder="Question (Ctrl+Enter sends)"
        rows={2}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) submit(e);
        }}
      />
      <div className="form-buttons">
        <button type="submit" className="small primary" data-testid="ask-submit" disabled={!message.trim()}>
          Ask
        </button>
      </div>
    </form>
  );
}

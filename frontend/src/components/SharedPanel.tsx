import { useState } from "react";
import { SHARED_SECTIONS, type SharedSection } from "../state/knowledge";
import { ContextPanel } from "./ContextPanel";
import { MemoryPanel } from "./MemoryPanel";
import { SkillsPanel } from "./SkillsPanel";
import { ToolsPanel } from "./ToolsPanel";

const LABEL: Record<SharedSection, string> = { skills: "Skills", memory: "Memory", context: "Context", tools: "Tools" };

/** A request to open a view's "new" form (`seq` makes repeated requests distinct). */
export interface NewRequest {
  section: "skills" | "memory";
  seq: number;
}

/**
 * What the project shares with every agent, one view at a time: skills, memory, the shared
 * context, project tools. A view once shown stays mounted (hidden): an unsaved context or a
 * half-written skill survives a look at another view, and still guards a reload.
 */
export function SharedPanel(props: { section: SharedSection; onSection(section: SharedSection): void; newRequest: NewRequest | null; hidden: boolean }) {
  const { section, onSection, newRequest } = props;
  const [visited, setVisited] = useState<ReadonlySet<SharedSection>>(() => new Set([section]));
  if (!visited.has(section)) setVisited(new Set([...visited, section]));
  const seqOf = (of: NewRequest["section"]) => (newRequest?.section === of ? newRequest.seq : 0);

  return (
    <div className="shared-panel" data-testid="shared-panel" hidden={props.hidden}>
      <div className="shared-switch" role="tablist" aria-label="What the project shares">
        {SHARED_SECTIONS.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={section === s}
            className={section === s ? "active" : undefined}
            data-testid={`shared-${s}`}
            onClick={() => onSection(s)}
          >
            {LABEL[s]}
          </button>
        ))}
      </div>
      {visited.has("skills") && <SkillsPanel hidden={section !== "skills"} newSeq={seqOf("skills")} />}
      {visited.has("memory") && <MemoryPanel hidden={section !== "memory"} newSeq={seqOf("memory")} />}
      {visited.has("context") && <ContextPanel hidden={section !== "context"} />}
      {visited.has("tools") && <ToolsPanel hidden={section !== "tools"} />}
    </div>
  );
}

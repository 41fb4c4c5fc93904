import { useEffect, useState } from "react";
import { onEvent, request } from "../api";
import type { ScheduledResume } from "../generated/ScheduledResume";

// The resumes scheduled after usage limits, shared by every cell: fetched once, then kept
// current by `resumesChanged` (which carries the whole schedule).

let current: ScheduledResume[] = [];
const listeners = new Set<(resumes: ScheduledResume[]) => void>();
let started = false;

function start(): void {
  if (started) return;
  started = true;
  const set = (resumes: ScheduledResume[]) => {
    current = resumes;
    for (const listener of [...listeners]) listener(current);
  };
  onEvent((event) => {
    if (event.type === "resumesChanged") set(event.resumes);
  });
  request("listResumes")
    .then(set)
    .catch(() => undefined); // the connection banner tells the rest
}

/** The scheduled resume of `agentId`, if any. */
export function useResume(agentId: string | undefined): ScheduledResume | undefined {
  const [resumes, setResumes] = useState(current);
  useEffect(() => {
    start();
    listeners.add(setResumes);
    setResumes(current);
    return () => {
      listeners.delete(setResumes);
    };
  }, []);
  return agentId ? resumes.find((r) => r.agentId === agentId) : undefined;
}

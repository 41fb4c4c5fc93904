import { useEffect, useRef } from "react";
import { onEvent } from "../api";
import type { DomainEvent } from "../types";

/** Calls the latest `handler` with every domain event while the component is mounted. */
export function useDomainEvent(handler: (event: DomainEvent) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => onEvent((event) => latest.current(event)), []);
}

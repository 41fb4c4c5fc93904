import { useCallback, useEffect, useState } from "react";
import { request } from "../api";
import type { PermissionsView, RuleKind } from "../types";
import { useCoalescedRefresh } from "./useCoalescedRefresh";
import { useDomainEvent } from "./useDomainEvent";

export interface Permissions {
  /** The files and warnings; `null` until first read. */
  view: PermissionsView | null;
  /** Why the files could not be read or saved, if they could not. */
  error: unknown;
  saving: boolean;
  /** Reads the files again (hand edits are not watched). */
  refresh(): void;
  /** Adds a rule to the project's file. */
  add(kind: RuleKind, rule: string): Promise<boolean>;
  /** Removes a rule from the project's file. */
  remove(kind: RuleKind, rule: string): Promise<boolean>;
  dismissError(): void;
}

/** The permissions files, read when the view opens and again after every `permissionsChanged`. */
export function usePermissions(): Permissions {
  const [view, setView] = useState<PermissionsView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);

  const refresh = useCoalescedRefresh(async () => {
    try {
      setView(await request("getPermissions"));
    } catch (e) {
      setError(e);
    }
  });

  useEffect(() => refresh(), [refresh]);

  useDomainEvent((event) => {
    if (event.type === "permissionsChanged") refresh();
  });

  const save = useCallback(async (change: { add?: { kind: RuleKind; rule: string }[]; remove?: { kind: RuleKind; rule: string }[] }) => {
    setSaving(true);
    setError(null);
    try {
      setView(await request("savePermissions", change));
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setSaving(false);
    }
  }, []);

  const add = useCallback((kind: RuleKind, rule: string) => save({ add: [{ kind, rule }] }), [save]);
  const remove = useCallback((kind: RuleKind, rule: string) => save({ remove: [{ kind, rule }] }), [save]);
  const dismissError = useCallback(() => setError(null), []);

  return { view, error, saving, refresh, add, remove, dismissError };
}

import { useEffect, useState } from "react";
import { connectionState, onConnection, type ConnectionState } from "../api";

/**
 * The backend connection's state, and an `epoch` that grows each time it (re)opens: data
 * hooks refetch on a new epoch, since events may have been missed while disconnected.
 */
export function useConnection(): { state: ConnectionState; epoch: number } {
  const [state, setState] = useState<ConnectionState>(() => connectionState());
  const [epoch, setEpoch] = useState(() => (connectionState() === "open" ? 1 : 0));
  useEffect(
    () =>
      onConnection((next) => {
        setState(next);
        if (next === "open") setEpoch((n) => n + 1);
      }),
    [],
  );
  return { state, epoch };
}

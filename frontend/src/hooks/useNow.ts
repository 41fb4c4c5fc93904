import { useEffect, useState } from "react";

/** Unix seconds now, ticking every second while the component is mounted (countdowns). */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

// Times as the UI says them: a reset's clock time and the countdown to it.

/** "19:52" today, "Wed 19:52" on another day (`epoch` in Unix seconds). */
export function clockTime(epoch: number): string {
  const at = new Date(epoch * 1000);
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toLocaleDateString([], { weekday: "short" })} ${time}`;
}

/** "1 h 02 min", "12 min", "40 s". */
export function countdown(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

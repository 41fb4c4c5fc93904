// Small stroke icons drawn inline, so they look the same whatever fonts the system has.

const PATHS = {
  splitRight: "M2.5 3.5h11v9h-11z M8 3.5v9",
  splitDown: "M2.5 3.5h11v9h-11z M2.5 8h11",
  zoom: "M9.5 2.5h4v4 M13.5 2.5l-4.5 4.5 M6.5 13.5h-4v-4 M2.5 13.5l4.5-4.5",
  unzoom: "M13 7h-4v-4 M9 7l4.5-4.5 M3 9h4v4 M7 9l-4.5 4.5",
  close: "M4 4l8 8 M12 4l-8 8",
  search: "M7 2.5a4.5 4.5 0 1 0 0 9a4.5 4.5 0 1 0 0-9z M10.3 10.3l3.2 3.2",
  edit: "M10.5 2.5l3 3l-8 8h-3v-3z M9 4l3 3",
  trash: "M3 4.5h10 M6.5 4.5v-2h3v2 M4.5 4.5l.7 9h5.6l.7-9 M7 7v4.5 M9 7v4.5",
  menu: "M2.5 4h11 M2.5 8h11 M2.5 12h11",
  more: "M3.5 8h.01 M8 8h.01 M12.5 8h.01",
  restart: "M13 8a5 5 0 1 1-1.6-3.7 M11.8 1.8v2.7h-2.7",
  stop: "M4.5 4.5h7v7h-7z",
  up: "M4 10l4-4l4 4",
  down: "M4 6l4 4l4-4",
  shield: "M8 1.8l5 2v4c0 3-2.2 5.2-5 6.4c-2.8-1.2-5-3.4-5-6.4v-4z",
  grip: "M6 4h.01 M10 4h.01 M6 8h.01 M10 8h.01 M6 12h.01 M10 12h.01",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg className="svg-icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

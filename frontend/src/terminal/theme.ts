// The terminals' look: one dark theme shared with the CSS variables in styles.css.

import type { ITerminalOptions } from "@xterm/xterm";

export const TERMINAL_FONT_FAMILY =
  '"JetBrains Mono", "Fira Code", "Cascadia Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace';
export const TERMINAL_FONT_SIZE = 13;

export const TERMINAL_OPTIONS: ITerminalOptions = {
  fontFamily: TERMINAL_FONT_FAMILY,
  fontSize: TERMINAL_FONT_SIZE,
  lineHeight: 1.1,
  scrollback: 10000,
  cursorBlink: true,
  allowProposedApi: true,
  macOptionIsMeta: true,
  rightClickSelectsWord: false,
  theme: {
    background: "#101216",
    foreground: "#d5d8de",
    cursor: "#e2e5ea",
    cursorAccent: "#101216",
    selectionBackground: "#33486e",
    black: "#1c1f24",
    red: "#ef6b73",
    green: "#8fc973",
    yellow: "#e5c07b",
    blue: "#62aeef",
    magenta: "#c678dd",
    cyan: "#56b6c2",
    white: "#c8ccd4",
    brightBlack: "#5c6370",
    brightRed: "#f38b92",
    brightGreen: "#a5d98c",
    brightYellow: "#f0d197",
    brightBlue: "#82c0f4",
    brightMagenta: "#d49be6",
    brightCyan: "#7cc8d2",
    brightWhite: "#f0f2f5",
  },
};

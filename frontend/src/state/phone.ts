// The phone layout's rules, shared by the hooks and views that switch to it.

/** Below a tablet's width (or a phone held sideways: short and touch-driven) the workspace shows
 *  one cell at a time, its panels as full-screen sheets and a key bar. */
export const PHONE_QUERY = "(max-width: 767px), (max-height: 500px) and (pointer: coarse)";

/** The least width and height of a control a finger hits reliably (WCAG 2.5.5, Apple's HIG). */
export const TOUCH_TARGET = 44;

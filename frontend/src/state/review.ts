// Review comments (docs/worktrees.md): where each line of a unified diff sits, and the one
// Markdown block the comments reach the agent as.

export type Side = "additions" | "deletions";

/** A comment on one line of a file's diff. */
export interface LineComment {
  file: string;
  side: Side;
  line: number;
  /** The commented line's code, as the diff shows it. */
  code: string;
  text: string;
  sent: boolean;
}

/** Each line of `patch` by `"<side>:<line number>"`: added and context lines on the new
 * side, removed lines on the old side (context lines on both). */
export function codeLines(patch: string): Map<string, string> {
  const lines = new Map<string, string>();
  let oldLine = 0;
  let newLine = 0;
  for (const text of patch.split("\n")) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      continue;
    }
    if (oldLine === 0 && newLine === 0) continue; // the header, before the first hunk
    if (text.startsWith("+")) lines.set(`additions:${newLine++}`, text.slice(1));
    else if (text.startsWith("-")) lines.set(`deletions:${oldLine++}`, text.slice(1));
    else if (text.startsWith(" ")) {
      lines.set(`additions:${newLine++}`, text.slice(1));
      lines.set(`deletions:${oldLine++}`, text.slice(1));
    }
  }
  return lines;
}

/** The comments as one Markdown block: file, line, the code line, the comment. */
export function reviewBlock(agentName: string, comments: LineComment[]): string {
  const parts = comments.map((c) => {
    const where = c.side === "deletions" ? `removed line ${c.line}` : `line ${c.line}`;
    const fence = c.code.includes("```") ? "~~~" : "```";
    return `### ${c.file}, ${where}\n${fence}\n${c.code}\n${fence}\n${c.text}`;
  });
  return `## Review comments for ${agentName}\n\n${parts.join("\n\n")}\n\nPlease address each comment.`;
}

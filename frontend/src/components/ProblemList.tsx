/** Files of the Shared panel that were skipped (a broken skill, memory entry or tool): each
 * path, as the user would find it, and why. Shown, never hidden. */
export function ProblemList({ problems, testId, what }: { problems: { path: string; reason: string }[]; testId: string; what: string }) {
  if (problems.length === 0) return null;
  return (
    <div className="shared-problems" data-testid={testId}>
      <span className="shared-problems-title">
        {problems.length} {problems.length === 1 ? "file" : "files"} {what}:
      </span>
      <ul>
        {problems.map((problem) => (
          <li key={problem.path} data-testid="shared-problem">
            <code>{problem.path}</code> <span>{problem.reason}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

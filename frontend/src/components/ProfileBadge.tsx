import type { AgentProfile } from "../types";

/** A small tag naming an agent's runtime profile (Claude Code, Codex, shell…). */
export function ProfileBadge({ profile, profileId }: { profile?: AgentProfile | undefined; profileId?: string }) {
  const id = profile?.id ?? profileId ?? "";
  const missing = !profile;
  return (
    <span
      className={`badge${missing ? " badge-missing" : ""}`}
      data-testid="profile-badge"
      data-profile-id={id}
      title={missing ? `Unknown profile “${id}”` : `${profile.name}: ${profile.command}`}
    >
      {profile?.name ?? id}
    </span>
  );
}

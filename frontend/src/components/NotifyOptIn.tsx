import type { NotificationsOptIn } from "../hooks/useAttention";

/** Asks once to show notifications when an agent out of view needs the user. */
export function NotifyOptIn(props: { optIn: NotificationsOptIn }) {
  if (props.optIn.state !== "off") return null;
  return (
    <button type="button" className="small notify-opt-in" data-testid="notify-opt-in" onClick={props.optIn.enable}>
      Notify me when an agent needs me
    </button>
  );
}

import type { DropZone } from "../state/cellDrop";

const LABELS: Record<DropZone, string> = {
  left: "Move to the left",
  right: "Move to the right",
  top: "Move above",
  bottom: "Move below",
  center: "Swap cells",
};

/** Shown on a cell while another is dragged over it: where the dragged cell would go. */
export function DropOverlay({ zone, refused }: { zone: DropZone; refused: string | null }) {
  return (
    <div className="drop-overlay" data-testid="drop-zone" data-zone={zone} data-refused={refused !== null}>
      <div className={`drop-zone drop-zone-${zone}${refused ? " refused" : ""}`}>
        <span className="drop-label" title={refused ?? undefined}>
          {refused ? "Cannot swap: a terminal stays in its cell" : LABELS[zone]}
        </span>
      </div>
    </div>
  );
}

import type { DropZone } from "../state/cellDrop";

const LABELS: Record<DropZone, string> = {
  left: "Move to the left",
  right: "Move to the right",
  top: "Move above",
  bottom: "Move below",
  center: "Swap cells",
};

/** Shown on a cell while another is dragged over it: where the dragged cell would go. */
export function DropOverlay({ zone }: { zone: DropZone }) {
  return (
    <div className="drop-overlay" data-testid="drop-zone" data-zone={zone}>
      <div className={`drop-zone drop-zone-${zone}`}>
        <span className="drop-label">{LABELS[zone]}</span>
      </div>
    </div>
  );
}

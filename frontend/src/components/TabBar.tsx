import { limitedIn, needingYouIn } from "../state/attention";
import { request } from "../api";
import { nextLayoutName } from "../state/layoutTree";
import { useCommands } from "../state/commandBus";
import { useConfirm } from "../state/confirm";
import { useWorkspace } from "../state/workspace";
import type { Layouts } from "../types";
import { LayoutTab } from "./LayoutTab";

/** The named layouts as tabs: switch, create, rename (double-click), delete. */
export function TabBar({ layouts }: { layouts: Layouts }) {
  const { layouts: state, sessions, reportError } = useWorkspace();
  const confirm = useConfirm();
  const single = layouts.layouts.length === 1;

  const create = async () => {
    try {
      await request("createLayout", { name: nextLayoutName(layouts) });
      state.refresh();
    } catch (error) {
      reportError(error);
    }
  };

  const rename = async (layoutId: string, name: string) => {
    try {
      await request("renameLayout", { layoutId, name });
      state.refresh();
    } catch (error) {
      reportError(error);
    }
  };

  const remove = async (layoutId: string, name: string) => {
    const running = [...sessions.byCell.values()].filter((s) => s.cell?.layoutId === layoutId && s.status === "running");
    const ok = await confirm({
      title: `Delete the layout “${name}”?`,
      message:
        running.length > 0
          ? `${running.length} running terminal${running.length > 1 ? "s" : ""} in it will be stopped.`
          : "Its cells are closed.",
      confirmLabel: "Delete layout",
      danger: true,
    });
    if (!ok) return;
    try {
      // deleteLayout stops the layout's terminals itself.
      await request("deleteLayout", { layoutId });
      state.refresh();
    } catch (error) {
      reportError(error);
    }
  };

  useCommands("tabbar", (command) => {
    if (command === "new") void create();
  });

  return (
    <nav className="tabbar" role="tablist" data-testid="tabbar">
      {layouts.layouts.map((layout) => (
        <LayoutTab
          key={layout.id}
          layout={layout}
          active={layout.id === layouts.active}
          canDelete={!single}
          needing={needingYouIn(sessions.all.values(), layout.id)}
          limited={limitedIn(sessions.all.values(), layout.id)}
          onSelect={() => void state.setActive(layout.id)}
          onRename={(name) => void rename(layout.id, name)}
          onDelete={() => void remove(layout.id, layout.name)}
        />
      ))}
      <button type="button" className="tab-add" data-testid="tab-add" title="New layout" onClick={() => void create()}>
        +
      </button>
    </nav>
  );
}

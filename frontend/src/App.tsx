import { ConfirmProvider } from "./components/ConfirmProvider";
import { ToastProvider } from "./components/ToastProvider";
import { Workspace } from "./components/Workspace";

/** IdeA's window: the workspace, with its dialogs and toasts. */
export function App() {
  return (
    <ToastProvider>
      <ConfirmProvider>
        <Workspace />
      </ConfirmProvider>
    </ToastProvider>
  );
}

import { createContext, useContext } from "react";

export interface ToastAction {
  label: string;
  run(): void;
}

export interface Toast {
  id: number;
  kind: "error" | "info";
  text: string;
  action?: ToastAction;
}

export interface Toaster {
  show(toast: Omit<Toast, "id">): void;
}

export const ToastContext = createContext<Toaster>({ show: () => undefined });

export function useToaster(): Toaster {
  return useContext(ToastContext);
}

import { useEffect } from "react";
import { PHONE_QUERY } from "../state/phone";
import { useMediaQuery } from "./useMediaQuery";

/**
 * Whether the phone layout is shown (`PHONE_QUERY`). While it is, the root element has the class
 * `phone` (the dialogs and toasts outside the workspace take touch sizes too), and `--app-top`
 * and `--app-height` follow the visual viewport: a phone's on-screen keyboard shrinks only that
 * viewport (iOS, and Chrome unless the page resizes with it), and the layout sizes itself by
 * these so its key bar stays above the keyboard.
 */
export function usePhoneLayout(): boolean {
  const phone = useMediaQuery(PHONE_QUERY);

  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle("phone", phone);
    const viewport = window.visualViewport;
    if (!phone || !viewport) return;
    const update = () => {
      root.style.setProperty("--app-top", `${viewport.offsetTop}px`);
      root.style.setProperty("--app-height", `${viewport.height}px`);
    };
    update();
    viewport.addEventListener("resize", update);
    viewport.addEventListener("scroll", update);
    return () => {
      viewport.removeEventListener("resize", update);
      viewport.removeEventListener("scroll", update);
      root.style.removeProperty("--app-top");
      root.style.removeProperty("--app-height");
      root.classList.remove("phone");
    };
  }, [phone]);

  return phone;
}

import { defineConfig } from "vite";

export default defineConfig({
  // Relative asset URLs: the same build is served by Tauri and by `idea serve`.
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 1200 },
});

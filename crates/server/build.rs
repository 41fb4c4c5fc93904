//! `idea serve` (and the desktop shell, in `idea-app`) embeds the web frontend
//! (`frontend/dist`); make sure a placeholder exists so `cargo build` works before
//! `npm run build` (the set-up scripts always build the real one first). This crate is built
//! before `idea-app`, whose Tauri context reads the same folder.

fn main() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../frontend/dist");
    if !dist.join("index.html").exists() {
        let _ = std::fs::create_dir_all(&dist);
        let _ = std::fs::write(
            dist.join("index.html"),
            "<!doctype html><title>IdeA</title><p>The frontend is not built: run <code>scripts/run.sh</code>.</p>",
        );
    }
    // Re-embed when the frontend is rebuilt (rust-embed cannot see new files by itself).
    println!("cargo:rerun-if-changed=../../frontend/dist");
    println!("cargo:rerun-if-changed=build.rs");
}

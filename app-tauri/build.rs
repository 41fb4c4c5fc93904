//! The desktop shell embeds the web frontend (`frontend/dist`); `idea-server`'s build script,
//! which runs before this crate is compiled, writes a placeholder when it has not been built.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "desktop")]
    {
        // Re-embed when the frontend is rebuilt.
        println!("cargo:rerun-if-changed=../frontend/dist");
        tauri_build::build();
    }
}

//! The rig shared by the integration tests (each test binary includes it with `mod support;`).

pub mod serve;
pub mod world_dir;
pub mod ws;

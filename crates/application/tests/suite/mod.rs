mod agents;
mod ask;
mod filesystem;
mod layouts;
mod permissions;
mod resume;
mod sessions;

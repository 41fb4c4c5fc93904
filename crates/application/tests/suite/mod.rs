mod agents;
mod ask;
mod filesystem;
mod layouts;
mod resume;
mod sessions;

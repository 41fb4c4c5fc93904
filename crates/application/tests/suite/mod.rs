mod agents;
mod filesystem;
mod layouts;
mod resume;
mod sessions;

mod agents;
mod filesystem;
mod layouts;
mod sessions;

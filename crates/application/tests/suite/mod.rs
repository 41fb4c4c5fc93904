mod agents;
mod filesystem;
mod layouts;

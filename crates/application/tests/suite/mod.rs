mod agents;
mod ask;
mod filedrop;
mod filesystem;
mod layouts;
mod resume;
mod sessions;

mod agents;
mod ask;
mod filedrop;
mod filesystem;
mod layouts;
mod permissions;
mod resume;
mod sessions;

mod ask;
mod filedrop;
mod launch;

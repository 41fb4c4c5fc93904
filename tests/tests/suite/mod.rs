mod ask;
mod launch;

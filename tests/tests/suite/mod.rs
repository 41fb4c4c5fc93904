mod agent_states;
mod ask;
mod filedrop;
mod launch;
mod mcp_chain;
mod resumes;

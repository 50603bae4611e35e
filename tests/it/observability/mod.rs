//! What the command shows of its work: structured logs on stderr
//! (`CODEMODE_LOG_FORMAT=json`).

mod logs;

//! What the command shows of its work: structured logs on stderr
//! (`CODEMODE_LOG_FORMAT=json`) and spans exported over OTLP.

mod logs;
mod otlp;

//! A Rust host embedding codemode: one tool written in Rust, and a TypeScript program that
//! calls it through Code Mode in the default engine (QuickJS) — every `await tools.add(...)`
//! goes through the registry's pipeline (argument checks, policy, timeouts, observers).
//!
//! `cargo run` prints the program's output and the calls it made.

use codemode::ContentBlock;
use codemode::code::Program;
use codemode::config::Config;
use codemode::host::Host;
use codemode::schema::{ParameterSchema, ValueSchema};
use codemode::tool::define_tool;

#[derive(serde::Deserialize)]
struct Args {
    a: f64,
    b: f64,
}

const PROGRAM: &str = "
const sums = await Promise.all([1, 2, 3].map((n) => tools.add({ a: n, b: 10 * n })));
console.log('sums:', sums.join(', '));
return sums.reduce((x, y) => x + y, 0);
";

#[tokio::main]
async fn main() -> Result<(), codemode::Error> {
    // `mode = "code"`: the model would see `run_code` and the TypeScript SDK of the tools.
    // No built-in file tools: this host's only tool is its own.
    let toml = "mode = \"code\"\n[builtin]\nenabled = []\n";
    let config = Config::parse(toml, std::path::Path::new("codemode.toml"))?;
    let host = Host::builder(config).build().await?;
    host.registry()
        .global()
        .register(
            define_tool::<Args, f64>("add")
                .description("Add two numbers.")
                .parameters(
                    ParameterSchema::new()
                        .required("a", ValueSchema::number())
                        .required("b", ValueSchema::number()),
                )
                .output(ValueSchema::number(), |_, sum| {
                    vec![ContentBlock::text(sum.to_string())]
                })
                .concurrency_safe(|_| true)
                .execute(|args, _ctx| async move { Ok(args.a + args.b) })
                .build()?,
        )?
        .keep();

    let run = host
        .run_program(Program::new(PROGRAM, "add three pairs"), None)
        .await?;
    println!("{}", run.result.model_text());
    for call in &run.sub_calls {
        println!(
            "call {}: {}({}) -> {}",
            call.index,
            call.name,
            call.arguments,
            call.result.model_text()
        );
    }
    if run.result.is_error() {
        return Err(codemode::Error::new(
            codemode::ErrorCode::ToolFailed,
            "the program failed",
        ));
    }
    Ok(())
}

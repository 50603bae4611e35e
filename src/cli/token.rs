//! `codemode token`: makes bearer tokens for `codemode serve --http` and the digests the
//! configuration keeps (`[[serve.tokens]]`'s `sha256`), so no secret is ever written to
//! `codemode.toml`.
//!
//! - `codemode token new [--name NAME]`: a fresh random token (256 bits from the kernel,
//!   base64url, 43 characters) on standard output, and the `[[serve.tokens]]` entry with
//!   its digest on standard error.
//! - `codemode token hash [--name NAME]`: the digest of the token read from standard input
//!   (one line; surrounding whitespace dropped); with `--name`, the token file line that
//!   accepts it (`NAME sha256:DIGEST`), so a token file need hold no secret.
//!
//! This module owns making and hashing tokens for the operator; the server checks them
//! (`codemode::mcp::server`).

use std::io::Read;

use crate::mcp::server::{BearerToken, sha256_hex};
use clap::{Args, Subcommand};

use super::Failure;

#[derive(Debug, Args)]
pub(crate) struct TokenArgs {
    #[command(subcommand)]
    command: TokenCommand,
}

#[derive(Debug, Subcommand)]
enum TokenCommand {
    /// Print a new random token (standard output) and the `[[serve.tokens]]` entry that
    /// accepts it (standard error).
    New {
        /// The token's name in the entry.
        #[arg(long, default_value = "client")]
        name: String,
    },
    /// Print the SHA-256 digest of the token read from standard input, for
    /// `[[serve.tokens]]`'s `sha256`; with `--name NAME`, the token file line that accepts
    /// it (`NAME sha256:DIGEST`) instead.
    Hash {
        /// Print a token file line for a token of this name.
        #[arg(long)]
        name: Option<String>,
    },
}

pub(crate) fn run(args: &TokenArgs) -> Result<(), Failure> {
    match &args.command {
        TokenCommand::New { name } => {
            let secret = new_secret()?;
            println!("{secret}");
            eprintln!(
                "# give the token above to the client (header `Authorization: Bearer <token>`);\n# put this in codemode.toml:\n[[serve.tokens]]\nname = {name:?}\nsha256 = \"{}\"",
                sha256_hex(&secret)
            );
            Ok(())
        }
        TokenCommand::Hash { name } => {
            let mut text = String::new();
            std::io::stdin()
                .take(64 * 1024)
                .read_to_string(&mut text)
                .map_err(|err| {
                    Failure::usage(format!("cannot read the token from standard input: {err}"))
                })?;
            let secret = text.trim();
            BearerToken::from_secret("stdin", secret)
                .map_err(|err| Failure::usage(err.to_string()))?;
            match name {
                Some(name) => {
                    if name.is_empty()
                        || name.starts_with('#')
                        || name.contains(char::is_whitespace)
                    {
                        return Err(Failure::usage(format!(
                            "--name: a token file name is one word not starting with `#`, got `{name}`"
                        )));
                    }
                    println!(
                        "{name} {}{}",
                        super::serve::DIGEST_PREFIX,
                        sha256_hex(secret)
                    );
                }
                None => println!("{}", sha256_hex(secret)),
            }
            Ok(())
        }
    }
}

/// 32 random bytes from the kernel, base64url without padding.
fn new_secret() -> Result<String, Failure> {
    let mut bytes = [0u8; 32];
    let mut filled = 0;
    while filled < bytes.len() {
        filled +=
            rustix::rand::getrandom(&mut bytes[filled..], rustix::rand::GetRandomFlags::empty())
                .map_err(|err| {
                    Failure::failed(format!("cannot read random bytes from the kernel: {err}"))
                })?;
    }
    Ok(base64url(&bytes))
}

fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_matches_the_rfc_4648_vectors() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64url(input.as_bytes()), expected);
        }
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn new_tokens_are_43_characters_and_differ() {
        let a = new_secret().unwrap();
        let b = new_secret().unwrap();
        assert_eq!(a.len(), 43);
        assert_ne!(a, b);
        assert!(BearerToken::from_secret("new", &a).is_ok());
    }
}

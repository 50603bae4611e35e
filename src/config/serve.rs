//! `[serve]`: what `codemode serve` reads from the file: the bearer tokens HTTP clients
//! must present (kept as SHA-256 digests, never the secrets), each with an optional tool
//! scope.
//!
//! ```toml
//! [[serve.tokens]]
//! name = "ci-agent"                 # for logs and messages
//! sha256 = "9f86d081884c7d65..."     # `codemode token hash` prints it (64 hex digits)
//! allow = ["read_file", "grep"]     # optional: the sessions of this token see only these
//! deny = ["write_file"]             # optional: ... and never these
//! max_sessions = 16                 # optional: this token's own share of each cap
//! max_streams = 32                  #   (default: an even share among the tokens,
//! max_runs = 2                      #   with a floor; see the README's "Serving a team")
//! run_queue = 16
//! ```
//!
//! This module owns reading and checking the section; it must not check tokens (the
//! server's `auth` does) or tool names against tools (the command does, once the host is
//! built, at the token's place in the file).

use serde::Deserialize;
use toml::Spanned;

use crate::error::Error;

use super::Place;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawServe {
    #[serde(default)]
    tokens: Vec<RawToken>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToken {
    name: Spanned<String>,
    sha256: Spanned<String>,
    allow: Option<Spanned<Vec<String>>>,
    deny: Option<Spanned<Vec<String>>>,
    max_sessions: Option<Spanned<i64>>,
    max_streams: Option<Spanned<i64>>,
    max_runs: Option<Spanned<i64>>,
    run_queue: Option<Spanned<i64>>,
}

/// A bearer token of `[[serve.tokens]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServeToken {
    /// Its name.
    pub name: String,
    /// The SHA-256 digest of its secret, 64 lowercase hexadecimal digits.
    pub sha256: String,
    /// The only tools its sessions see, if limited.
    pub allow: Option<Vec<String>>,
    /// Tools its sessions never see.
    pub deny: Option<Vec<String>>,
    /// Its own share of `--max-sessions` (default: an even share).
    pub max_sessions: Option<usize>,
    /// Its own share of `--max-connections` held by event streams and calls being
    /// answered (default: an even share).
    pub max_streams: Option<usize>,
    /// Its own share of `--max-runs` (default: an even share).
    pub max_runs: Option<usize>,
    /// Its own share of `--run-queue` (default: an even share).
    pub run_queue: Option<usize>,
    /// Where the file names it (`file:line:col`).
    pub place: String,
}

/// Checks `[serve]`: each token named once, a digest of 64 hexadecimal digits, tool lists
/// without empty or repeated names.
pub(super) fn check(place: &Place<'_>, raw: RawServe) -> Result<Vec<ServeToken>, Error> {
    let mut tokens: Vec<ServeToken> = Vec::new();
    for token in raw.tokens {
        let name = token.name.get_ref().trim().to_owned();
        if name.is_empty() {
            return Err(place.error(token.name.span(), "a token needs a non-empty `name`"));
        }
        if tokens.iter().any(|seen| seen.name == name) {
            return Err(place.error(
                token.name.span(),
                format!("a token named `{name}` is declared twice"),
            ));
        }
        let digest = token.sha256.get_ref().trim().to_ascii_lowercase();
        if digest.len() != 64 || !digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(place.error(
                token.sha256.span(),
                format!(
                    "token `{name}`: `sha256` must be the 64 hexadecimal digits `codemode token hash` prints (never the token itself)"
                ),
            ));
        }
        if let Some(same) = tokens.iter().find(|seen| seen.sha256 == digest) {
            return Err(place.error(
                token.sha256.span(),
                format!(
                    "token `{name}` has the digest of token `{}`: give each client its own token",
                    same.name
                ),
            ));
        }
        let list = |key: &str, list: Option<Spanned<Vec<String>>>| -> Result<_, Error> {
            let Some(list) = list else { return Ok(None) };
            let span = list.span();
            let names = list.into_inner();
            if names.is_empty() {
                return Err(place.error(
                    span.clone(),
                    format!("token `{name}`: `{key}` is empty; leave it out to keep every tool"),
                ));
            }
            for (i, tool) in names.iter().enumerate() {
                if tool.is_empty() || names[..i].contains(tool) {
                    return Err(place.error(
                        span,
                        format!(
                            "token `{name}`: `{key}` has an empty or repeated tool name `{tool}`"
                        ),
                    ));
                }
            }
            Ok(Some(names))
        };
        let allow = list("allow", token.allow)?;
        let deny = list("deny", token.deny)?;
        let count = |key: &str, value: Option<Spanned<i64>>, least: i64| -> Result<_, Error> {
            let Some(value) = value else { return Ok(None) };
            let span = value.span();
            let number = *value.get_ref();
            match usize::try_from(number) {
                Ok(number) if number as i64 >= least => Ok(Some(number)),
                _ => Err(place.error(
                    span,
                    format!("token `{name}`: `{key}` must be a whole number of at least {least}, got {number}"),
                )),
            }
        };
        let max_sessions = count("max_sessions", token.max_sessions, 1)?;
        let max_streams = count("max_streams", token.max_streams, 1)?;
        let max_runs = count("max_runs", token.max_runs, 1)?;
        let run_queue = count("run_queue", token.run_queue, 0)?;
        tokens.push(ServeToken {
            place: place.at(token.name.span()),
            name,
            sha256: digest,
            allow,
            deny,
            max_sessions,
            max_streams,
            max_runs,
            run_queue,
        });
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::Config;

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(text, Path::new("c.toml")).map_err(|err| err.message().to_owned())
    }

    #[test]
    fn tokens_are_read_with_their_scope_and_place() {
        let digest = "AB".repeat(32);
        let config = parse(&format!(
            "[[serve.tokens]]\nname = \"ci\"\nsha256 = \"{digest}\"\nallow = [\"grep\"]\n"
        ))
        .unwrap();
        let token = &config.serve_tokens[0];
        assert_eq!(token.name, "ci");
        assert_eq!(token.sha256, "ab".repeat(32));
        assert_eq!(token.allow.as_deref(), Some(&["grep".to_owned()][..]));
        assert_eq!(token.deny, None);
        assert_eq!(token.place, "c.toml:2:8");
    }

    #[test]
    fn token_mistakes_name_their_place() {
        let digest = "ab".repeat(32);
        let err = |text: &str| parse(text).unwrap_err();
        assert!(
            err("[[serve.tokens]]\nname = \"\"\nsha256 = \"x\"\n")
                .contains("c.toml:2:8: a token needs")
        );
        assert!(
            err("[[serve.tokens]]\nname = \"a\"\nsha256 = \"secret\"\n")
                .contains("c.toml:3:10: token `a`: `sha256` must be")
        );
        let twice = format!(
            "[[serve.tokens]]\nname = \"a\"\nsha256 = \"{digest}\"\n[[serve.tokens]]\nname = \"a\"\nsha256 = \"{}\"\n",
            "cd".repeat(32)
        );
        assert!(err(&twice).contains("c.toml:5:8: a token named `a` is declared twice"));
        let same = format!(
            "[[serve.tokens]]\nname = \"a\"\nsha256 = \"{digest}\"\n[[serve.tokens]]\nname = \"b\"\nsha256 = \"{digest}\"\n"
        );
        assert!(err(&same).contains("has the digest of token `a`"));
        let empty = format!("[[serve.tokens]]\nname = \"a\"\nsha256 = \"{digest}\"\nallow = []\n");
        assert!(err(&empty).contains("`allow` is empty"));
        let repeated = format!(
            "[[serve.tokens]]\nname = \"a\"\nsha256 = \"{digest}\"\ndeny = [\"x\", \"x\"]\n"
        );
        assert!(err(&repeated).contains("repeated tool name `x`"));
        assert!(err("[serve]\ntoken = 1\n").contains("unknown field `token`"));
        let zero = format!("[[serve.tokens]]\nname = \"a\"\nsha256 = \"{digest}\"\nmax_runs = 0\n");
        assert!(err(&zero).contains(
            "c.toml:4:12: token `a`: `max_runs` must be a whole number of at least 1, got 0"
        ));
        let shares = parse(&format!(
            "[[serve.tokens]]\nname = \"a\"\nsha256 = \"{digest}\"\nmax_sessions = 3\nrun_queue = 0\n"
        ))
        .unwrap();
        assert_eq!(shares.serve_tokens[0].max_sessions, Some(3));
        assert_eq!(shares.serve_tokens[0].run_queue, Some(0));
        assert_eq!(shares.serve_tokens[0].max_runs, None);
    }
}

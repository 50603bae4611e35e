//! A session's store through `codemode serve` and the Python MCP client: a value stored in
//! one run is read in the next run of the same session, and is absent in another session
//! (over stdio: another connection) and in another token's session; a bound hit gives the
//! documented error and keeps what was stored; the store ends with the session (`DELETE`),
//! its bytes given back to the server's memory for stores.

use serde_json::json;

use super::{Workspace, is_error, run_code, serve_http, steps, text};

const ALPHA: &str = "alpha-secret-0123456789-abcdefghijklmnop";
const BETA: &str = "beta-secret-0123456789-abcdefghijklmnopq";

#[test]
fn over_stdio_runs_of_one_connection_share_a_store_that_the_next_connection_does_not_see() {
    let workspace = Workspace::new("mode = \"code\"\n\n[store]\nmax_keys = 2\n");
    let report = workspace.drive(json!({
        "steps": [
            run_code(
                "const found = await tools.grep({pattern: 'TODO|hello'});\n\
                 await store.set('matches', found.matches);\n\
                 await store.set('count', found.matches.length);\n\
                 return found.matches.length;"
            ),
            run_code(
                "const matches = await store.get('matches');\n\
                 return matches.filter(m => m.text.includes('TODO')).map(m => m.path);"
            ),
            run_code(
                "try { await store.set('third', 3); } catch (e) { console.log(e.code, e.message); }\n\
                 return await store.keys();"
            ),
        ],
    }));
    let seen = steps(&report);
    assert_eq!(text(&seen[0]), "2", "{}", text(&seen[0]));
    assert!(text(&seen[1]).contains("src/lib.rs"), "{}", text(&seen[1]));
    let third = text(&seen[2]);
    assert!(
        third.starts_with("STORE_LIMIT the store holds 2 keys, its bound (store.max_keys = 2)"),
        "{third}"
    );
    assert!(
        third.contains("\"count\"") && third.contains("\"matches\""),
        "{third}"
    );
    let next = workspace.drive(json!({
        "steps": [run_code("return [await store.get('matches') === undefined, (await store.keys()).length]")],
    }));
    assert_eq!(
        text(&steps(&next)[0])
            .split_whitespace()
            .collect::<String>(),
        "[true,0]"
    );
}

#[test]
fn over_http_a_store_is_its_sessions_own_bounded_by_the_server_and_freed_when_it_ends() {
    let (alpha, beta) = (
        codemode::mcp::server::sha256_hex(ALPHA),
        codemode::mcp::server::sha256_hex(BETA),
    );
    let workspace = Workspace::new(&format!(
        "mode = \"code\"\n\n[[serve.tokens]]\nname = \"alpha\"\nsha256 = \"{alpha}\"\n\n\
         [[serve.tokens]]\nname = \"beta\"\nsha256 = \"{beta}\"\n"
    ));
    let served = serve_http(&workspace, "127.0.0.1:0", &["--max-store-mb", "1"], &[]);
    let session = |token: &str, programs: &[&str]| {
        let report = workspace.drive(json!({
            "transport": "http",
            "url": served.url,
            "headers": {"Authorization": format!("Bearer {token}")},
            "steps": programs.iter().map(|code| run_code(code)).collect::<Vec<_>>(),
        }));
        steps(&report)
            .iter()
            .map(|result| {
                assert!(!is_error(result), "{result}");
                text(result).to_owned()
            })
            .collect::<Vec<String>>()
    };
    // 700 KB of the server's 1 MiB: a second such value is refused, the first kept.
    let first = session(
        ALPHA,
        &[
            "await store.set('big', 'x'.repeat(700000)); return 'stored';",
            "const big = await store.get('big');\n\
             try { await store.set('more', 'y'.repeat(700000)); } catch (e) { console.log(e.code, e.message); }\n\
             return [big.length, await store.keys()];",
        ],
    );
    assert_eq!(first[0], "stored");
    assert!(
        first[1].starts_with(
            "STORE_LIMIT storing it would pass the server's memory for session stores (--max-store-mb 1) (1048576 bytes, 700005 used now)"
        ),
        "{}",
        first[1]
    );
    assert!(first[1].contains("700000"), "{}", first[1]);
    // Another token's session, then a new session of the same token (the first one was
    // deleted by its client): neither sees the value, and the bytes were given back.
    let other = session(BETA, &["return await store.get('big') === undefined"]);
    assert_eq!(other, ["true"]);
    let again = session(
        ALPHA,
        &["const before = await store.get('big') === undefined;\n\
           await store.set('big', 'z'.repeat(700000));\n\
           return before;"],
    );
    assert_eq!(again, ["true"]);
}

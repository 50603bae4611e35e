//! Tool sets larger than the budget (issue 24, deliverable 4), on the 1,300 real tools of
//! `fixtures/corpus/real-mcp-servers.tools.json` (56 MCP servers): `run_code`'s description
//! within `sdk_max_tokens` by the index, `describe_tools` finding the tool a person would
//! pick for a task, both texts byte-stable (two runs, and a reviewed snapshot across
//! processes), and calls of tools whose declarations were never read still checked.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use codemode::code::sdk::{SdkTool, parse_tool_list};
use codemode::code::{
    CodeMode, CodeModeConfig, DESCRIBE_TOOLS, IndexStep, PresentationMode, SourcedTool, ToolIndex,
    assemble, estimate_tokens,
};
use codemode::json::{DepthLimit, JsonValue};
use codemode::registry::{Registry, RegistryConfig};
use codemode::runtime::{CodeRuntime, Language};
use codemode::tool::{ToolAnnotations, ToolDefinition, ToolExecutionInput, ToolOutput};
use serde_json::json;

use super::{ENGINE, text};

/// The corpus: each tool with its server (`mcp:<server>`), the servers listed in
/// `_source.servers` in the order of `tools`, with their counts.
pub static CORPUS: LazyLock<Vec<SourcedTool>> = LazyLock::new(|| {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/corpus/real-mcp-servers.tools.json"
    );
    let value: JsonValue = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let tools = parse_tool_list(&json!({"tools": value["tools"]})).unwrap();
    let mut sources = Vec::new();
    for server in value["_source"]["servers"].as_array().unwrap() {
        let count = server["tools"].as_u64().unwrap() as usize;
        let name = format!("mcp:{}", server["server"].as_str().unwrap());
        sources.extend(std::iter::repeat_n(name, count));
    }
    assert_eq!((tools.len(), sources.len()), (1_300, 1_300));
    sources
        .into_iter()
        .zip(tools)
        .map(|(source, tool)| SourcedTool {
            source: Some(source),
            tool,
        })
        .collect()
});

/// A definition of a corpus tool that returns its arguments.
fn definition(tool: &SourcedTool) -> Option<ToolDefinition> {
    let SdkTool {
        name,
        description,
        parameters,
        ..
    } = &tool.tool;
    let schema = codemode::schema::JsonSchema::parse(parameters)
        .ok()
        .map(Arc::new);
    ToolDefinition::builder(name)
        .description(description)
        .parameters(parameters.clone())
        .output(ToolOutput::any())
        .annotations(ToolAnnotations {
            source: tool.source.clone(),
            advertised_output: tool.tool.output.clone(),
        })
        // A raw tool checks its own arguments (as an MCP server does): here against its
        // declared schema, as the pipeline would for a typed tool.
        .execute(move |args, _ctx| {
            let schema = schema.clone();
            async move {
                if let Some(schema) = &schema {
                    codemode::schema::validate_args(schema, &args)?;
                }
                Ok(json!({"got": args}))
            }
        })
        .build()
        .ok()
}

/// A registry in pure Code Mode with the corpus registered (the tools whose schemas the
/// registry accepts) under a budget of `budget` tokens.
fn corpus_registry(budget: usize) -> (Registry, usize) {
    let registry = Registry::with_config(
        RegistryConfig::default().with_cancel_grace(Duration::from_millis(500)),
    );
    let mut registered = 0;
    for tool in CORPUS.iter() {
        if let Some(definition) = definition(tool) {
            registry.global().register(definition).unwrap().keep();
            registered += 1;
        }
    }
    let runtime: Arc<dyn CodeRuntime> = ENGINE.clone();
    let config = CodeModeConfig::default()
        .with_mode(PresentationMode::Code)
        .with_sdk_max_tokens(Some(budget));
    let code = CodeMode::install(&registry, config).unwrap();
    code.set_runtime(runtime).unwrap();
    (registry, registered)
}

#[test]
fn run_code_s_description_fits_ten_thousand_tokens_by_the_index() {
    let (registry, registered) = corpus_registry(10_000);
    let assembly = assemble(&registry.global()).unwrap();
    let names: Vec<&str> = assembly.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, [DESCRIBE_TOOLS, "run_code"]);
    let tools = assembly.self_describing_tools();
    let run_code = tools.iter().find(|t| t.name == "run_code").unwrap();
    let tokens = estimate_tokens(&run_code.description);
    println!(
        "{registered} tools; run_code's description: {tokens} tokens at {:?}",
        assembly.sdk_index
    );
    assert!(tokens <= 10_000, "{tokens}");
    // The names of 1,300 tools fit in 10,000 tokens; with first sentences they do not.
    assert_eq!(assembly.sdk_index, Some(IndexStep::Names));
    assert!(run_code.description.contains(
        "(index step 2 of 3: tool names only (with first sentences the index would not fit))"
    ));
    for tool in CORPUS.iter().filter(|t| definition(t).is_some()) {
        assert!(
            run_code.description.contains(&tool.tool.name),
            "{} is in the index",
            tool.tool.name
        );
    }
    // The same registry assembled again, and a second registry: the same bytes.
    assert_eq!(assemble(&registry.global()).unwrap(), assembly);
    let (again, _) = corpus_registry(10_000);
    assert_eq!(
        assemble(&again.global()).unwrap().self_describing_tools(),
        tools
    );
    // Across processes: the reviewed snapshot.
    insta::assert_snapshot!("corpus_index_10000", &run_code.description);

    // A smaller budget takes the last step: sources, their counts and what to search for.
    let (small, _) = corpus_registry(2_500);
    let assembly = assemble(&small.global()).unwrap();
    assert_eq!(assembly.sdk_index, Some(IndexStep::Sources));
    let description = &assembly.self_describing_tools()[1].description;
    assert!(
        estimate_tokens(description) <= 2_500,
        "{}",
        estimate_tokens(description)
    );
    assert!(
        description.contains("\n- mcp:server-slack: 8 tools; search for: channel, reply, thread, user, history, message\n"),
        "{description}"
    );
    // Without a budget there is no index and no describe_tools.
    let plain = Registry::new();
    plain
        .global()
        .register(definition(&CORPUS[0]).unwrap())
        .unwrap()
        .keep();
    let code = CodeMode::install(
        &plain,
        CodeModeConfig::default().with_mode(PresentationMode::Code),
    )
    .unwrap();
    code.set_runtime(ENGINE.clone()).unwrap();
    let assembly = assemble(&plain.global()).unwrap();
    assert_eq!(assembly.sdk_index, None);
    assert_eq!(assembly.tools.len(), 1);
    assert!(plain.global().get(DESCRIBE_TOOLS).is_none());
}

/// Forty tasks in plain words, each with the tool a person would pick, over many servers.
const QUERIES: [(&str, &str); 40] = [
    ("draw a pie chart of market share", "generate_pie_chart"),
    (
        "search arxiv for papers about diffusion models",
        "search_papers",
    ),
    ("create a new jira issue", "jira_create_issue"),
    ("add a comment to a jira issue", "jira_add_comment"),
    (
        "which cloudwatch alarms are active right now",
        "get_active_alarms",
    ),
    ("search the AWS documentation", "search_documentation"),
    ("list the IAM users of the account", "list_users"),
    ("create an access key for an IAM user", "create_access_key"),
    ("read the logs of a pod in EKS", "get_pod_logs"),
    ("search the web with brave", "brave_web_search"),
    ("find news articles with brave search", "brave_news_search"),
    (
        "take a heap snapshot of the page in chrome devtools",
        "take_heapsnapshot",
    ),
    (
        "why did my circleci build fail, show the failure logs",
        "get_build_failure_logs",
    ),
    ("rerun a circleci workflow", "rerun_workflow"),
    ("store a value in a cloudflare kv namespace", "kv_put"),
    ("create an r2 bucket", "r2_create_bucket"),
    ("kill a running process by its pid", "kill_process"),
    (
        "start a playwright codegen session to record a test",
        "start_codegen_session",
    ),
    ("list the elasticsearch indices", "list_indices"),
    (
        "download the images of a figma file",
        "download_figma_images",
    ),
    ("show a recursive directory tree", "directory_tree"),
    ("scrape a web page with firecrawl", "firecrawl_scrape"),
    (
        "cherry pick a git commit onto the current branch",
        "git_cherry_pick",
    ),
    (
        "show the unstaged changes in the git working tree",
        "git_diff_unstaged",
    ),
    ("restart the dynos of a heroku app", "ps_restart"),
    ("get the logs of a heroku app", "get_app_logs"),
    (
        "scale a kubernetes deployment to more replicas",
        "kubectl_scale",
    ),
    ("install a helm chart", "install_helm_chart"),
    (
        "reverse geocode coordinates into an address with google maps",
        "maps_reverse_geocode",
    ),
    (
        "add observations to entities in the knowledge graph",
        "add_observations",
    ),
    ("create an index on a mongodb collection", "create-index"),
    ("retrieve a notion page", "API-retrieve-a-page"),
    ("rerank documents with pinecone", "rerank-documents"),
    ("post a message to a slack channel", "slack_post_message"),
    ("merge a github pull request", "merge_pull_request"),
    ("refund a stripe payment", "create_refund"),
    (
        "cancel a customer's stripe subscription",
        "cancel_subscription",
    ),
    ("what time is it now in a timezone", "get_current_time"),
    (
        "send an sms text message with twilio",
        "TwilioApiV2010--CreateMessage",
    ),
    ("what should I work on next in task master", "next_task"),
];

#[test]
fn forty_tasks_find_the_tool_a_person_would_pick() {
    let index = ToolIndex::new(Language::TypeScript, &CORPUS, DepthLimit::DEFAULT);
    let mut misses = Vec::new();
    for (query, expected) in QUERIES {
        assert!(
            CORPUS.iter().any(|t| t.tool.name == expected),
            "{expected} is a corpus tool"
        );
        let found = index.search(query, 5);
        if !found.contains(&expected) {
            misses.push(format!("{query:?}: expected {expected}, got {found:?}"));
        }
    }
    println!(
        "{} of {} in the first five; misses:\n{}",
        QUERIES.len() - misses.len(),
        QUERIES.len(),
        misses.join("\n")
    );
    assert!(misses.len() <= 4, "{}", misses.join("\n"));
}

#[tokio::test]
async fn describe_tools_declares_named_tools_and_a_query_s_matches() {
    let (registry, _) = corpus_registry(10_000);
    let describe = |args: JsonValue| {
        let registry = registry.clone();
        async move {
            registry
                .execute(ToolExecutionInput::new("d-1", DESCRIBE_TOOLS, args))
                .await
        }
    };
    let args = json!({"names": ["slack_post_message", "slack_post_mesage"], "query": "merge a github pull request", "limit": 3});
    let first = describe(args.clone()).await;
    assert!(!first.is_error(), "{}", text(&first));
    let answer = text(&first);
    assert!(
        answer.starts_with(
            "Named: slack_post_message.\nBest matches for \"merge a github pull request\", best first: "
        ),
        "{answer}"
    );
    assert!(
        answer.contains("Unknown tool: slack_post_mesage (did you mean slack_post_message?).\n"),
        "{answer}"
    );
    assert!(answer.contains("  slack_post_message: {\n"), "{answer}");
    assert!(answer.contains("  merge_pull_request: {\n"), "{answer}");
    assert!(answer.contains("declare const tools: {"), "{answer}");
    // Byte-identical on a second call, and across processes (the snapshot).
    let second = describe(args).await;
    assert_eq!(text(&second), answer);
    insta::assert_snapshot!("corpus_describe_tools", answer);

    let none = describe(json!({})).await;
    assert_eq!(
        none.failure_info().map(|f| f.code),
        Some(codemode::ErrorCode::InvalidArgs)
    );
    // A program cannot call describe_tools (the model does).
    let run =
        super::run_program(&registry, "return await tools.describe_tools({query: 'x'})").await;
    assert!(run.is_error(), "{}", text(&run));
}

#[tokio::test]
async fn tools_whose_declarations_were_never_read_are_called_and_checked() {
    let (registry, _) = corpus_registry(10_000);
    // Good arguments: the call runs.
    let good = super::run_program(
        &registry,
        "return await tools.slack_post_message({channel_id: 'C1', text: 'hi'})",
    )
    .await;
    assert!(!good.is_error(), "{}", text(&good));
    assert!(
        text(&good).contains("\"channel_id\": \"C1\""),
        "{}",
        text(&good)
    );
    // Bad arguments: the pipeline refuses them as for any call.
    let bad = super::run_program(
        &registry,
        "try { await tools.slack_post_message({text: 3}) } catch (e) { return e.message }",
    )
    .await;
    assert!(!bad.is_error(), "{}", text(&bad));
    assert!(
        text(&bad).contains("INVALID_ARGS") || text(&bad).contains("invalid"),
        "{}",
        text(&bad)
    );
    // An unknown tool: refused before the run, with the nearest names.
    let unknown = super::run_program(&registry, "return await tools.slack_post_mesage({})").await;
    assert!(
        text(&unknown).contains("did you mean slack_post_message?"),
        "{}",
        text(&unknown)
    );
}

/// Through `codemode serve` with the Python MCP client: a budget the built-in and command
/// tools' SDK is over lists `describe_tools` beside `run_code`, answers a query with
/// declarations, and a program calls a tool whose declaration it never read.
#[test]
fn served_over_mcp_the_index_and_describe_tools() {
    use crate::serve::{Workspace, call, is_error, run_code, steps, text, tool_names};
    let workspace = Workspace::new("mode = \"code\"\nsdk_max_tokens = 1000");
    let plan = json!({"steps": [
        {"op": "list"},
        call(DESCRIBE_TOOLS, json!({"query": "add two numbers", "limit": 1})),
        run_code("return await tools.add({a: 2, b: 3})"),
        call(DESCRIBE_TOOLS, json!({"query": "add two numbers", "limit": 1})),
    ]});
    let report = workspace.drive(plan.clone());
    let list = &steps(&report)[0];
    assert_eq!(tool_names(list), [DESCRIBE_TOOLS, "run_code"]);
    let run_code_tool = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "run_code")
        .unwrap();
    let description = run_code_tool["description"].as_str().unwrap();
    assert!(description.contains("## Tool index"), "{description}");
    assert!(
        estimate_tokens(description) <= 1_000,
        "{}",
        estimate_tokens(description)
    );
    assert!(
        !description.contains("interface ToolArgsMap"),
        "{description}"
    );
    let described = &steps(&report)[1];
    assert!(!is_error(described), "{described}");
    let answer = text(described);
    assert!(
        answer.starts_with("Best matches for \"add two numbers\", best first: add.\n\n```ts\n"),
        "{answer}"
    );
    assert!(answer.contains("  add: {\n"), "{answer}");
    let ran = &steps(&report)[2];
    assert!(!is_error(ran), "{ran}");
    assert!(text(ran).contains('5'), "{}", text(ran));
    // The same answer on a second call, and from a second server process.
    assert_eq!(text(&steps(&report)[3]), answer);
    let again = workspace.drive(plan);
    assert_eq!(text(&steps(&again)[1]), answer);
    assert_eq!(steps(&again)[0], *list);
}

//! The vendor example (`examples/embed_lime.rs`) runs as a test: one call loads lime config
//! with trust, untrusted project hooks are skipped, trusted ones block, rewrite and add
//! context, and a cancelled dispatch leaves no process.

#[allow(dead_code)] // its `main` is the example's entry point, unused here
#[path = "../../examples/embed_lime.rs"]
mod embed_lime;

#[tokio::test]
async fn the_embedding_example_honours_every_hook_and_cancels_cleanly() {
    let said = embed_lime::run().await.expect("the example runs");
    let text = said.join("\n");
    let skipped = said
        .iter()
        .filter(|line| line.starts_with("before review:") && line.contains("Untrusted"))
        .count();
    assert_eq!(
        skipped, 2,
        "both Bash guards skipped before review:\n{text}"
    );
    assert!(!text.contains("config:"), "no diagnostics:\n{text}");
    for expected in [
        "status: checking the command",
        "status: preferring pnpm",
        "Allow: running `pnpm install`",
        "blocked: rm -rf is not allowed here",
        "the build cache lives in .cache/",
        "cancelled: hook process gone",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
}

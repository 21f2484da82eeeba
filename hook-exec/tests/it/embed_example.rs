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

/// The README's vendor quick start is the crate doc's, which `cargo test` compiles: the code a
/// vendor copies from the README builds.
#[test]
fn the_readme_quick_start_is_the_compiled_crate_doc_example() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../README.md")).expect("README.md");
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("src/lib.rs");
    let section = readme
        .split("## Embed the engine (agent vendors)")
        .nth(1)
        .expect("README has the vendor section");
    let in_readme = section
        .split("```rust\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a rust block in the vendor section");
    let doc: String = lib
        .split("//! # Quick start (vendors)")
        .nth(1)
        .and_then(|rest| rest.split("//! ```no_run\n").nth(1))
        .and_then(|rest| rest.split("//! ```").next())
        .expect("the crate doc's quick start")
        .lines()
        .map(|line| {
            let line = line.strip_prefix("//!").unwrap_or(line);
            line.strip_prefix(' ').unwrap_or(line)
        })
        // Lines rustdoc hides (`# ...`, the `trust` feature's gate) are not in the README.
        .filter(|line| !line.starts_with("# "))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_eq!(
        in_readme, doc,
        "README.md and hook-exec's quick start differ"
    );
}

//! The crate graph: every internal dependency of a workspace crate is one ARCHITECTURE.md's
//! "Layers" draws ([`ALLOWED`]), the crates that must not depend on an async runtime or an HTTP
//! client do not ([`FORBIDDEN_EXTERNAL`]), and no crate reaches a crate it must not even
//! transitively, with the features it really gets ([`FORBIDDEN_TRANSITIVE`]).

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

use super::packages;

/// The internal dependencies each workspace crate may have (normal and build dependencies;
/// dev-dependencies are free). `None`: any. Keep equal to ARCHITECTURE.md "Layers".
pub(crate) const ALLOWED: &[(&str, Option<&[&str]>)] = &[
    ("hook-protocol", Some(&[])),
    ("hook-fs", Some(&[])),
    ("hook-config", Some(&["hook-protocol", "hook-fs"])),
    (
        "hook-trust",
        Some(&["hook-protocol", "hook-config", "hook-fs"]),
    ),
    (
        "hook-exec",
        Some(&["hook-protocol", "hook-config", "hook-trust", "hook-fs"]),
    ),
    ("hook-sdk", Some(&["hook-protocol"])),
    // The ready-made guards: typed tool calls and responses of the SDK, nothing that runs.
    ("hook-guards", Some(&["hook-sdk"])),
    ("hook-cli", None),
    // The test kit: a dev-dependency only, on the protocol it builds events of.
    ("hook-test-support", Some(&["hook-protocol"])),
    ("xtask", Some(&["hook-protocol"])),
];

/// External crates a workspace crate must not depend on (normal dependencies).
pub(crate) const FORBIDDEN_EXTERNAL: &[(&str, &[&str])] = &[
    ("hook-protocol", &["tokio", "reqwest"]),
    ("hook-config", &["tokio", "reqwest"]),
    ("hook-trust", &["tokio", "reqwest"]),
];

/// Crates a workspace crate must not reach through normal dependencies, even transitively:
/// (crate, forbidden crates, the fix).
pub(crate) const FORBIDDEN_TRANSITIVE: &[(&str, &[&str], &str)] = &[
    (
        "hook-sdk",
        &["jsonschema", "schemars"],
        "a hook binary neither validates nor generates schemas: hook-sdk depends on hook-protocol without its `validate` and `schema` features (its `testing` feature, for dev-dependencies, turns `validate` on)",
    ),
    (
        "hook-trust",
        &["hook-exec", "tokio", "reqwest"],
        "hashes and stores need no engine, runtime or HTTP client: move what hook-trust needs into hook-config or hook-protocol, or make the dependency a dev-dependency",
    ),
];

/// `cargo tree -e normal -p name --prefix depth`: `name`'s normal dependencies, features
/// resolved for it alone, one per line after its depth.
pub(super) fn cargo_tree(root: &Path, name: &str) -> Result<String> {
    let stdout = crate::cargo_stdout(
        root,
        &["tree", "-e", "normal", "--prefix", "depth", "-p", name],
    )?;
    String::from_utf8(stdout).with_context(|| format!("cargo tree -p {name}: not UTF-8"))
}

/// The crates of `forbidden` that `tree` (the output of [`cargo_tree`] for `name`) reaches, each
/// with the first path that reaches it and `fix`.
pub(crate) fn check_transitive(
    name: &str,
    forbidden: &[&str],
    fix: &str,
    tree: &str,
) -> Vec<String> {
    let mut problems = Vec::new();
    // The crates from the root down to the current line, by depth.
    let mut path: Vec<&str> = Vec::new();
    let mut reported: Vec<&str> = Vec::new();
    for line in tree.lines() {
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let Ok(depth) = line[..digits].parse::<usize>() else {
            continue;
        };
        let Some(crate_name) = line[digits..].split_whitespace().next() else {
            continue;
        };
        path.truncate(depth);
        path.push(crate_name);
        if depth > 0 && forbidden.contains(&crate_name) && !reported.contains(&crate_name) {
            reported.push(crate_name);
            problems.push(format!(
                "{name} reaches {crate_name} ({}): {fix} (FORBIDDEN_TRANSITIVE in xtask/src/tidy/graph.rs)",
                path.join(" -> ")
            ));
        }
    }
    problems
}

/// Whether a dependency entry is a normal or build dependency (not dev).
fn is_shipped(dependency: &Value) -> bool {
    dependency["kind"].as_str() != Some("dev")
}

/// The dependency-graph problems of `metadata`: internal edges not in [`ALLOWED`], crates
/// missing from it, and external dependencies in [`FORBIDDEN_EXTERNAL`].
pub(crate) fn check_graph(metadata: &Value) -> Vec<String> {
    let packages = packages(metadata);
    let internal: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut problems = Vec::new();
    for package in &packages {
        let name = package["name"].as_str().unwrap_or_default();
        let Some((_, allowed)) = ALLOWED.iter().find(|(crate_name, _)| *crate_name == name) else {
            problems.push(format!(
                "{name} is a workspace crate missing from the allow-list: add it to ALLOWED in xtask/src/tidy/graph.rs and to ARCHITECTURE.md \"Layers\""
            ));
            continue;
        };
        let forbidden = FORBIDDEN_EXTERNAL
            .iter()
            .find(|(crate_name, _)| *crate_name == name)
            .map_or(&[][..], |(_, list)| *list);
        let dependencies = package["dependencies"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        for dependency in dependencies.iter().filter(|d| is_shipped(d)) {
            let target = dependency["name"].as_str().unwrap_or_default();
            if internal.contains(&target) {
                if let Some(allowed) = allowed
                    && !allowed.contains(&target)
                {
                    problems.push(format!(
                        "{name} -> {target}: not in ARCHITECTURE.md \"Layers\" ({name} may depend on {}); move what {name} needs from {target} into a crate it may see (or make it a dev-dependency), or change the picture and ALLOWED in xtask/src/tidy/graph.rs together",
                        if allowed.is_empty() { "no workspace crate".to_owned() } else { allowed.join(", ") }
                    ));
                }
            } else if forbidden.contains(&target) {
                problems.push(format!(
                    "{name} -> {target}: {name} must not depend on {target} (FORBIDDEN_EXTERNAL in xtask/src/tidy/graph.rs); keep the code that needs it in hook-exec or hook-cli"
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    /// A metadata document with the real graph, where `extra` adds `(crate, dependency, kind)`.
    fn metadata(extra: &[(&str, &str, Option<&str>)]) -> Value {
        let edges: &[(&str, &[&str])] = &[
            ("hook-protocol", &["serde", "serde_json"]),
            ("hook-config", &["hook-protocol", "sha2"]),
            ("hook-trust", &["hook-protocol", "hook-config", "sha2"]),
            (
                "hook-exec",
                &[
                    "hook-protocol",
                    "hook-config",
                    "hook-trust",
                    "tokio",
                    "reqwest",
                ],
            ),
            ("hook-sdk", &["hook-protocol"]),
            (
                "hook-cli",
                &[
                    "hook-protocol",
                    "hook-config",
                    "hook-exec",
                    "hook-trust",
                    "tokio",
                ],
            ),
            ("xtask", &["hook-protocol", "anyhow"]),
        ];
        let packages: Vec<Value> = edges
            .iter()
            .map(|(name, dependencies)| {
                let mut list: Vec<Value> = dependencies
                    .iter()
                    .map(|d| json!({"name": d, "kind": null}))
                    .collect();
                for (from, to, kind) in extra {
                    if from == name {
                        list.push(json!({"name": to, "kind": kind}));
                    }
                }
                json!({"name": name, "manifest_path": format!("/w/{name}/Cargo.toml"), "dependencies": list})
            })
            .collect();
        json!({ "packages": packages })
    }

    #[test]
    fn the_real_graph_passes() {
        assert_eq!(check_graph(&metadata(&[])), Vec::<String>::new());
    }

    #[test]
    fn a_forbidden_internal_edge_fails_naming_it_and_the_fix() {
        let problems = check_graph(&metadata(&[("hook-trust", "hook-exec", None)]));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("hook-trust -> hook-exec: not in ARCHITECTURE.md"),
            "{}",
            problems[0]
        );
        assert!(
            problems[0].contains("may depend on hook-protocol, hook-config"),
            "{}",
            problems[0]
        );
        // Upward edges too.
        let problems = check_graph(&metadata(&[(
            "hook-protocol",
            "hook-config",
            Some("build"),
        )]));
        assert!(
            problems[0].contains("hook-protocol may depend on no workspace crate"),
            "{problems:?}"
        );
        let problems = check_graph(&metadata(&[("hook-sdk", "hook-trust", None)]));
        assert!(
            problems[0].starts_with("hook-sdk -> hook-trust"),
            "{problems:?}"
        );
    }

    #[test]
    fn dev_dependencies_are_free() {
        let extra = [
            ("hook-trust", "hook-exec", Some("dev")),
            ("hook-trust", "tokio", Some("dev")),
        ];
        assert_eq!(check_graph(&metadata(&extra)), Vec::<String>::new());
    }

    #[test]
    fn a_forbidden_external_dependency_fails() {
        for forbidden in ["tokio", "reqwest"] {
            let problems = check_graph(&metadata(&[("hook-trust", forbidden, None)]));
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(
                problems[0].starts_with(&format!("hook-trust -> {forbidden}: hook-trust must not")),
                "{problems:?}"
            );
        }
    }

    #[test]
    fn an_unknown_workspace_crate_fails() {
        let mut document = metadata(&[]);
        document["packages"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "hook-new", "manifest_path": "/w/hook-new/Cargo.toml", "dependencies": []}));
        let problems = check_graph(&document);
        assert!(
            problems[0].starts_with("hook-new is a workspace crate missing"),
            "{problems:?}"
        );
    }

    /// `cargo tree -e normal --prefix depth -p hook-sdk` output, with `extra` lines appended.
    fn sdk_tree(extra: &str) -> String {
        format!(
            "0hook-sdk v0.1.0 (/w/hook-sdk)\n\
             1hook-protocol v0.1.0 (/w/hook-protocol)\n\
             2serde v1.0.229\n\
             3serde_derive v1.0.229 (proc-macro)\n\
             2serde_json v1.0.154\n\
             {extra}\
             1serde v1.0.229 (*)\n"
        )
    }

    #[test]
    fn the_real_sdk_tree_passes() {
        let fix = "the fix";
        let tree = sdk_tree("");
        assert_eq!(
            check_transitive("hook-sdk", &["jsonschema", "schemars"], fix, &tree),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_forbidden_transitive_dependency_fails_naming_the_path_and_the_fix() {
        let (name, forbidden, fix) = FORBIDDEN_TRANSITIVE[0];
        assert_eq!(name, "hook-sdk");
        // hook-protocol's `validate` feature turned on for the SDK pulls jsonschema.
        let tree = sdk_tree(
            "2jsonschema v0.61.2\n\
             3referencing v0.61.2\n\
             2jsonschema v0.61.2 (*)\n",
        );
        let problems = check_transitive(name, forbidden, fix, &tree);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with(
                "hook-sdk reaches jsonschema (hook-sdk -> hook-protocol -> jsonschema): "
            ),
            "{}",
            problems[0]
        );
        assert!(
            problems[0].contains("without its `validate` and `schema` features"),
            "{}",
            problems[0]
        );

        // A forbidden crate deep down, through a crate that is fine itself.
        let (name, forbidden, fix) = FORBIDDEN_TRANSITIVE[1];
        let tree = "0hook-trust v0.1.0 (/w/hook-trust)\n\
                    1hook-config v0.1.0 (/w/hook-config)\n\
                    2hook-protocol v0.1.0 (/w/hook-protocol)\n\
                    1some-cache v1.0.0\n\
                    2tokio v1.47.0\n";
        let problems = check_transitive(name, forbidden, fix, tree);
        assert_eq!(
            problems,
            vec![format!(
                "hook-trust reaches tokio (hook-trust -> some-cache -> tokio): {fix} (FORBIDDEN_TRANSITIVE in xtask/src/tidy/graph.rs)"
            )]
        );
    }
}

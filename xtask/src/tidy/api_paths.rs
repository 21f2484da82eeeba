//! One public path per item: no item of a library crate is public under two paths
//! (`hook_exec::McpError` and `hook_exec::client::McpError`), read from the committed API
//! snapshots `api/<crate>.txt` that `cargo xtask public-api --bless` writes.
//!
//! The workspace's rule, which the fix of every problem follows: **a type or function sits at
//! the crate root and the module that defines it is private, unless the module is a namespace
//! of its own** (a dialect's events, the journal, the native ABI, the test helpers): then its
//! items are reached only through the module and the root does not re-export them. No
//! `#[doc(hidden)]` hides a second path: a path is public or it is not.
//!
//! The snapshot is text, not rustdoc's item ids, so "the same item" is read from it: the same
//! kind and last name, and
//!
//! - for a struct, enum, trait or union: the same lines naming it (fields, variants, methods,
//!   impls), with its path cut to the last name;
//! - for a function, constant, static or type alias: the same declaration, path cut likewise;
//! - for a re-export of another crate's item (`pub use a = b`): the same last name of what it
//!   re-exports.
//!
//! Members (a method, a field, a variant) follow their type and are not counted twice. Items
//! of sibling dialect modules ([`PARALLEL`]: `output::verboo::FIELDS`, `output::wuu::FIELDS`)
//! are parallel items by design, not one item under two paths; the few paths of
//! [`NOT_COUNTED`] are not counted, each with its reason.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};

/// Module names whose same-named items are distinct by design: the dialects, each a namespace
/// with the same shape (`input::lime`, `input::verboo`, `input::wuu`).
pub(crate) const PARALLEL: &[&str] = &["lime", "verboo", "wuu"];

/// Paths the check does not count, each with why: two distinct items the snapshot's text
/// cannot tell apart, or a second path kept for now with the reason and what removes it.
pub(crate) const NOT_COUNTED: &[(&str, &str)] = &[
    (
        "hook_protocol::schema::generate::all",
        "a different function: `schema::generate` builds the schemas from the types, `schema::all` reads the committed files",
    ),
    (
        "hook_protocol::schema::generate::outcome_schema",
        "a different function: built from the types, where `schema::outcome_schema` reads the committed file",
    ),
    (
        "hook_protocol::schema::generate::schema",
        "a different function: built from the types, where `schema::schema` reads the committed file",
    ),
    (
        "hook_protocol::output::lime::PermissionRequestDecision",
        "lime's own struct, of the same shape as verboo's `output::PermissionRequestDecision` today",
    ),
];

/// The item kinds a snapshot line declares (`pub struct a::B`), after its qualifiers.
const KINDS: &[&str] = &[
    "struct", "enum", "trait", "union", "type", "fn", "const", "static", "macro", "mod", "use",
];

/// The kinds whose members (lines `a::Type::member`) follow them.
const TYPE_KINDS: &[&str] = &["struct", "enum", "trait", "union", "type"];

/// The problems of every `api/*.txt` under `root`, each naming the file.
pub(crate) fn check_snapshots(root: &Path) -> Result<Vec<String>> {
    let folder = root.join("api");
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .with_context(|| format!("reading {}", folder.display()))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("reading {}", folder.display()))?;
    files.retain(|file| file.extension().is_some_and(|e| e == "txt"));
    files.sort();
    let mut problems = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("reading {}", file.display()))?;
        let shown = format!("api/{}", file.file_name().unwrap_or_default().display());
        problems.extend(check_api_paths(&shown, &text));
    }
    Ok(problems)
}

/// The items of one snapshot (`file`, its `text`) public under more than one path.
pub(crate) fn check_api_paths(file: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with("# "))
        .collect();
    let items: Vec<(&str, &str, &str)> = lines.iter().filter_map(|line| declared(line)).collect();
    let types: BTreeSet<&str> = items
        .iter()
        .filter(|(kind, ..)| TYPE_KINDS.contains(kind))
        .map(|(_, path, _)| *path)
        .collect();
    // (kind, last name, what makes it that item) -> its paths
    let mut groups: BTreeMap<(&str, &str, Vec<String>), BTreeSet<&str>> = BTreeMap::new();
    for &(kind, path, line) in &items {
        let Some((parent, name)) = path.rsplit_once("::") else {
            continue;
        };
        let not_counted = NOT_COUNTED.iter().any(|(waived, _)| *waived == path);
        if kind == "mod" || types.contains(parent) || not_counted {
            continue;
        }
        let identity = match kind {
            "use" => {
                let target = line.split_once(" = ").map_or("", |(_, target)| target);
                vec![target.rsplit("::").next().unwrap_or(target).to_owned()]
            }
            _ if TYPE_KINDS.contains(&kind) && kind != "type" => {
                let mut naming: Vec<String> = lines
                    .iter()
                    .filter(|line| find_path(line, path).is_some())
                    .map(|line| replace_path(line, path, name))
                    .collect();
                naming.sort();
                naming
            }
            _ => vec![replace_path(line, path, name)],
        };
        groups
            .entry((kind, name, identity))
            .or_default()
            .insert(path);
    }
    let mut problems = Vec::new();
    for ((kind, name, _), paths) in groups {
        let paths: Vec<&str> = paths.into_iter().collect();
        let all_parallel = paths
            .iter()
            .enumerate()
            .all(|(i, a)| paths[i + 1..].iter().all(|b| parallel(a, b)));
        if paths.len() < 2 || all_parallel {
            continue;
        }
        let listed = paths
            .iter()
            .map(|path| format!("`{path}`"))
            .collect::<Vec<_>>()
            .join(" and ");
        problems.push(format!(
            "{file}: {kind} `{name}` is public under {} paths, {listed}: keep one (at the crate root with its module private, or only in its module when the module is a namespace of its own; see xtask/src/tidy/api_paths.rs), then `cargo xtask public-api --bless`",
            paths.len()
        ));
    }
    problems
}

/// `(kind, path, line without attributes)` when `line` declares a public item: `pub`, any of
/// `async`/`const`/`unsafe`/`extern "C"`, a kind of [`KINDS`], then the path.
fn declared(line: &str) -> Option<(&'static str, &str, &str)> {
    let mut rest = line;
    // Attributes first: `#[non_exhaustive] pub enum ...`.
    while let Some(after) = rest.strip_prefix("#[") {
        rest = after.split_once("] ")?.1;
    }
    let stripped = rest;
    let mut words = rest.strip_prefix("pub ")?;
    loop {
        let (word, after) = words.split_once(' ')?;
        // `const fn` is a qualified function, `const X` a constant.
        let qualifier = word == "const"
            && ["fn ", "unsafe ", "async ", "extern "]
                .iter()
                .any(|next| after.starts_with(next));
        if let Some(kind) = KINDS.iter().find(|kind| **kind == word && !qualifier) {
            let end = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(after.len());
            let path = after[..end].trim_end_matches(':');
            return (!path.is_empty()).then_some((*kind, path, stripped));
        }
        if ![
            "async",
            "const",
            "unsafe",
            "extern",
            "\"C\"",
            "\"C-unwind\"",
        ]
        .contains(&word)
        {
            return None;
        }
        words = after;
    }
}

/// Where `path` stands in `line` as a whole path (not the start of a longer name, nor the end
/// of a longer path); `a::B` is found in `a::B::new` but not in `a::Bc` or `x::a::B`.
fn find_path(line: &str, path: &str) -> Option<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(found) = line[from..].find(path) {
        let start = from + found;
        let end = start + path.len();
        let before_ok = !line[..start].ends_with(|c: char| is_ident(c) || c == ':');
        let after_ok = !line[end..].starts_with(is_ident);
        if before_ok && after_ok {
            return Some(start);
        }
        from = end;
    }
    None
}

/// `line` with every whole occurrence of `path` ([`find_path`]) cut to `name`.
fn replace_path(line: &str, path: &str, name: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = find_path(rest, path) {
        out.push_str(&rest[..start]);
        out.push_str(name);
        rest = &rest[start + path.len()..];
    }
    out.push_str(rest);
    out
}

/// Whether `a` and `b` differ in one segment only, and both are [`PARALLEL`] dialect modules.
fn parallel(a: &str, b: &str) -> bool {
    let a: Vec<&str> = a.split("::").collect();
    let b: Vec<&str> = b.split("::").collect();
    if a.len() != b.len() {
        return false;
    }
    let differing: Vec<(&&str, &&str)> = a.iter().zip(&b).filter(|(x, y)| x != y).collect();
    matches!(differing.as_slice(), [(x, y)] if PARALLEL.contains(x) && PARALLEL.contains(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A type inlined at the root and in its module, with its members and impls, as rustdoc
    /// lists a local `pub use module::Type`.
    const TWO_PATHS: &str = "\
# The public API of demo.
pub mod demo::client
#[non_exhaustive] pub enum demo::McpError
#[non_exhaustive] pub enum demo::client::McpError
demo::McpError::Call { server: String }
demo::client::McpError::Call { server: String }
impl Debug for demo::McpError
impl Debug for demo::client::McpError
pub fn demo::McpError::server(&self) -> &str
pub fn demo::client::McpError::server(&self) -> &str
pub fn demo::client::connect(url: &str) -> Result<(), McpError>
pub fn demo::connect(url: &str) -> Result<(), McpError>
pub use demo::BoxFuture = client::BoxFuture
pub use demo::client::BoxFuture = futures::future::BoxFuture
";

    #[test]
    fn an_item_under_two_paths_fails_naming_both_and_the_fix() {
        let problems = check_api_paths("api/demo.txt", TWO_PATHS);
        assert_eq!(problems.len(), 3, "{problems:#?}");
        for (kind, name, first, second) in [
            (
                "enum",
                "McpError",
                "demo::McpError",
                "demo::client::McpError",
            ),
            ("fn", "connect", "demo::client::connect", "demo::connect"),
            (
                "use",
                "BoxFuture",
                "demo::BoxFuture",
                "demo::client::BoxFuture",
            ),
        ] {
            let wanted =
                format!("{kind} `{name}` is public under 2 paths, `{first}` and `{second}`");
            assert!(
                problems.iter().any(|p| p.contains(&wanted)
                    && p.starts_with("api/demo.txt: ")
                    && p.contains("cargo xtask public-api --bless")),
                "{wanted} in {problems:#?}"
            );
        }
    }

    #[test]
    fn distinct_items_with_one_name_pass() {
        // (why it is not one item, snapshot)
        let table = [
            (
                "members follow their type: two types' `new` are not one function",
                "pub struct demo::A\npub struct demo::B\npub fn demo::A::new() -> Self\npub fn demo::B::new() -> Self\n",
            ),
            (
                "same name, different fields",
                "pub struct demo::a::Output\npub struct demo::b::Output\npub demo::a::Output::x: u8\npub demo::b::Output::y: u8\n",
            ),
            (
                "same name, different signatures",
                "pub fn demo::a::read(x: u8)\npub fn demo::b::read(x: u16)\n",
            ),
            (
                "sibling dialect modules are parallel by design",
                "pub const demo::output::verboo::FIELDS: &[&str]\npub const demo::output::wuu::FIELDS: &[&str]\n",
            ),
            (
                "a module and a function may share a name",
                "pub mod demo::render\npub fn demo::render(x: u8)\n",
            ),
            (
                "one path each",
                "pub struct demo::Router\npub fn demo::Router::new() -> Self\nimpl Debug for demo::Router\n",
            ),
        ];
        for (why, text) in table {
            assert_eq!(
                check_api_paths("api/demo.txt", text),
                Vec::<String>::new(),
                "{why}"
            );
        }
    }

    /// A path not counted is in a committed snapshot (a stale entry would hide nothing and
    /// mislead), and says why.
    #[test]
    fn the_paths_not_counted_exist_and_say_why() {
        let api = crate::root().join("api");
        let snapshots: String = ["hook-protocol.txt"]
            .iter()
            .map(|file| std::fs::read_to_string(api.join(file)).expect("the committed snapshot"))
            .collect();
        for (path, why) in NOT_COUNTED {
            let declared_there = snapshots
                .lines()
                .filter_map(declared)
                .any(|(_, declared_path, _)| declared_path == *path);
            assert!(
                declared_there,
                "{path} is in no api/*.txt: drop it from NOT_COUNTED"
            );
            assert!(why.len() > 20, "{path}: say why it is not counted");
        }
    }

    #[test]
    fn declarations_are_read_through_attributes_and_qualifiers() {
        // (line, kind and path)
        let table = [
            ("#[non_exhaustive] pub enum a::E", Some(("enum", "a::E"))),
            ("pub const fn a::f() -> u8", Some(("fn", "a::f"))),
            ("pub async fn a::g()", Some(("fn", "a::g"))),
            ("pub unsafe extern \"C\" fn a::h()", Some(("fn", "a::h"))),
            ("pub const a::MAX: usize", Some(("const", "a::MAX"))),
            ("pub trait a::T: Send + Sync", Some(("trait", "a::T"))),
            ("pub fn a::S::get<'a>(&'a self)", Some(("fn", "a::S::get"))),
            ("impl Debug for a::E", None),
            ("a::E::Variant", None),
        ];
        for (line, wanted) in table {
            assert_eq!(declared(line).map(|(k, p, _)| (k, p)), wanted, "{line}");
        }
    }
}

//! The module import graph of one crate's `src/`, and its cycles: tidy's check, run on every
//! crate of the workspace, that each stays a stack of files a newcomer can read bottom up
//! ([`check_cycles`]).
//!
//! A file imports another when its code (outside comments and test items) names a path into
//! it: `crate::ops::trust::Changed`, `super::location::Location`, or an item of a
//! `use crate::ui::{list, trust::skip_warnings}` group, however the group is spread over lines.
//! A glob (`use super::*`, `use crate::ops::*`) imports the module it reads and every child
//! module of it: each child is then in scope by its bare name. A path is resolved to the
//! longest module prefix that is a file of the crate. A module's
//! own ancestors are not edges (a child always sits inside its parent, and naming the parent's
//! items is how Rust modules share), and test-only files (`tests.rs`, anything under a `tests/`
//! folder) are left out.
//!
//! # Limitations
//! A path reached without `crate::`/`super::`/`self::` (a child module named by its bare name
//! from its parent, a `use` of a re-export) is not followed; the layering rule of tidy's
//! `CLI_LAYERS` (`tidy/cli_layers.rs`) covers what crosses layers whatever the spelling. String
//! literals are read as code: a path spelt out in a message counts as named.

use std::collections::{BTreeMap, BTreeSet};

/// The import cycles among `files` (each a path relative to the crate's `src/` with `/`
/// separators, and its text), each as one problem naming the files in order; `shown` is the
/// folder prepended to the paths in messages (`hook-cli/src`). The glob imports of files under
/// a folder of `globs_exempt` (relative to `src/`, ending in `/`) are not edges; their named
/// imports still are.
pub(crate) fn check_cycles(
    shown: &str,
    files: &[(String, String)],
    globs_exempt: &[&str],
) -> Vec<String> {
    let modules: BTreeMap<Vec<String>, &str> = files
        .iter()
        .filter(|(path, _)| !is_test_file(path))
        .map(|(path, text)| (module_path(path), text.as_str()))
        .collect();
    let names: BTreeMap<Vec<String>, &str> = files
        .iter()
        .filter(|(path, _)| !is_test_file(path))
        .map(|(path, _)| (module_path(path), path.as_str()))
        .collect();
    let graph: BTreeMap<&Vec<String>, BTreeSet<&Vec<String>>> = modules
        .iter()
        .map(|(module, text)| {
            let globs = !globs_exempt
                .iter()
                .any(|folder| names[module].starts_with(folder));
            (module, imports(module, text, &modules, globs))
        })
        .collect();
    cycles(&graph)
        .into_iter()
        .map(|cycle| {
            let chain: Vec<String> = cycle
                .iter()
                .chain(cycle.first())
                .map(|module| format!("{shown}/{}", names[*module]))
                .collect();
            format!(
                "import cycle: {}: move what both sides need into a module below them (an existing one, or a new small one; in hook-cli, ops/ for what is done, shell.rs-like helpers for what both layers use), so that each file imports only files under it; a glob import brings in every sibling module: name what the file uses instead",
                chain.join(" -> ")
            )
        })
        .collect()
}

/// Whether `path` is compiled only for tests by its name or folder.
fn is_test_file(path: &str) -> bool {
    path == "tests.rs"
        || path.ends_with("/tests.rs")
        || path.starts_with("tests/")
        || path.contains("/tests/")
}

/// `ops/relay/mod.rs` → `[ops, relay]`; `main.rs` and `lib.rs` → `[]`.
fn module_path(path: &str) -> Vec<String> {
    let path = path.strip_suffix(".rs").unwrap_or(path);
    let mut parts: Vec<String> = path.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    if parts == ["main"] || parts == ["lib"] {
        parts.clear();
    }
    parts
}

/// The modules of `modules` that `module`'s code names, but itself and its ancestors; with
/// `globs`, a glob import (`use super::*`) names every child of the module it reads.
fn imports<'m>(
    module: &[String],
    text: &str,
    modules: &'m BTreeMap<Vec<String>, &str>,
    globs: bool,
) -> BTreeSet<&'m Vec<String>> {
    let code = crate::source::code_lines(text)
        .into_iter()
        .map(|(_, line)| line)
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = BTreeSet::new();
    for Named { path, glob } in paths(module, &code) {
        let target = (1..=path.len())
            .rev()
            .find_map(|len| modules.get_key_value(&path[..len]).map(|(key, _)| key));
        if let Some(target) = target
            && !module.starts_with(target)
        {
            found.insert(target);
        }
        if glob && globs {
            // `use super::*` brings in every child module of `super` by its bare name, which
            // this reader does not follow: each of them counts as named.
            found.extend(modules.keys().filter(|child| {
                child.len() == path.len() + 1
                    && child.starts_with(&path)
                    && !module.starts_with(child)
            }));
        }
    }
    found
}

/// A module path named by code, and whether it ends in a glob (`crate::ops::*`).
struct Named {
    /// The absolute module path, the `*` left out.
    path: Vec<String>,
    /// Whether everything in `path` is imported (`path::*`).
    glob: bool,
}

/// Every absolute module path `code` names from `module` through `crate::`, `super::` or
/// `self::`, groups expanded.
fn paths(module: &[String], code: &str) -> Vec<Named> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let starts_word = at == 0 || !is_ident(bytes[at - 1]);
        let root = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|root| bytes[at..].starts_with(root.as_bytes()));
        match root {
            Some(_) if starts_word => {
                let mut parser = Parser { code, at };
                let base = module_relative(module, &mut parser);
                parser.tree(base, &mut found);
                at = parser.at.max(at + 1);
            }
            _ => at += 1,
        }
    }
    found
}

/// The base a path starting at `parser` names (`crate`: the root; each `super`: one module up;
/// `self`: `module`), the roots consumed.
fn module_relative(module: &[String], parser: &mut Parser<'_>) -> Vec<String> {
    let mut base: Vec<String> = if parser.eat("crate::") {
        Vec::new()
    } else {
        module.to_vec()
    };
    loop {
        if parser.eat("super::") {
            base.pop();
        } else if parser.eat("self::") {
        } else {
            return base;
        }
    }
}

/// A tiny reader of `use` trees: `a::b::{c, d::{e, f}}`.
struct Parser<'a> {
    code: &'a str,
    at: usize,
}

impl Parser<'_> {
    /// Consumes `text` (after blanks) when it comes next.
    fn eat(&mut self, text: &str) -> bool {
        self.blanks();
        if self.code.as_bytes()[self.at..].starts_with(text.as_bytes()) {
            self.at += text.len();
            true
        } else {
            false
        }
    }

    fn blanks(&mut self) {
        while self
            .code
            .as_bytes()
            .get(self.at)
            .is_some_and(u8::is_ascii_whitespace)
        {
            self.at += 1;
        }
    }

    fn ident(&mut self) -> Option<String> {
        self.blanks();
        let start = self.at;
        while self
            .code
            .as_bytes()
            .get(self.at)
            .is_some_and(|b| is_ident(*b))
        {
            self.at += 1;
        }
        (self.at > start).then(|| self.code[start..self.at].to_owned())
    }

    /// A path or group from here, each full path pushed to `found` (prefixed by `base`).
    fn tree(&mut self, mut base: Vec<String>, found: &mut Vec<Named>) {
        loop {
            if self.eat("{") {
                loop {
                    if self.eat("}") {
                        return;
                    }
                    let before = self.at;
                    self.tree(base.clone(), found);
                    self.eat(",");
                    if self.at == before || self.at >= self.code.len() {
                        return;
                    }
                }
            }
            if self.eat("*") {
                found.push(Named {
                    path: base,
                    glob: true,
                });
                return;
            }
            match self.ident() {
                Some(name) if name == "self" => {}
                Some(name) => base.push(name),
                None => {
                    found.push(Named {
                        path: base,
                        glob: false,
                    });
                    return;
                }
            }
            if !self.eat("::") {
                found.push(Named {
                    path: base,
                    glob: false,
                });
                return;
            }
        }
    }
}

fn is_ident(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The cycles of `graph`, each once (its strongly connected components of more than one
/// module, as a path through them found by a depth-first walk).
fn cycles<'m>(
    graph: &BTreeMap<&'m Vec<String>, BTreeSet<&'m Vec<String>>>,
) -> Vec<Vec<&'m Vec<String>>> {
    let mut found = Vec::new();
    let mut done: BTreeSet<&Vec<String>> = BTreeSet::new();
    for &start in graph.keys() {
        if done.contains(start) {
            continue;
        }
        let mut stack = vec![start];
        if let Some(cycle) = walk(graph, &mut stack, &mut done) {
            for module in &cycle {
                done.insert(module);
            }
            found.push(cycle);
        }
        done.insert(start);
    }
    found
}

/// A depth-first walk from the top of `stack`: the first path back onto the stack, if any.
fn walk<'m>(
    graph: &BTreeMap<&'m Vec<String>, BTreeSet<&'m Vec<String>>>,
    stack: &mut Vec<&'m Vec<String>>,
    done: &mut BTreeSet<&'m Vec<String>>,
) -> Option<Vec<&'m Vec<String>>> {
    let top = *stack.last()?;
    for &next in graph.get(top).into_iter().flatten() {
        if let Some(at) = stack.iter().position(|module| *module == next) {
            return Some(stack[at..].to_vec());
        }
        if done.contains(next) {
            continue;
        }
        stack.push(next);
        let cycle = walk(graph, stack, done);
        stack.pop();
        if cycle.is_some() {
            return cycle;
        }
        done.insert(next);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(path, text)| ((*path).to_owned(), (*text).to_owned()))
            .collect()
    }

    #[test]
    fn a_three_file_cycle_fails_naming_each_file_in_order() {
        let crate_files = files(&[
            ("main.rs", "mod ops;\nmod ui;\n"),
            ("ops/mod.rs", "pub(crate) mod a;\npub(crate) mod b;\n"),
            ("ops/a.rs", "use crate::ops::b::Thing;\n"),
            ("ops/b.rs", "fn f() { super::super::ui::show(); }\n"),
            (
                "ui/mod.rs",
                "use crate::{\n    ops::{\n        a::{self, Other},\n    },\n};\n",
            ),
        ]);
        let problems = check_cycles("hook-cli/src", &crate_files, &[]);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(
            problems[0].contains(
                "hook-cli/src/ops/a.rs -> hook-cli/src/ops/b.rs -> hook-cli/src/ui/mod.rs -> hook-cli/src/ops/a.rs"
            ),
            "{}",
            problems[0]
        );
        assert!(problems[0].contains("move what both sides need"));
    }

    #[test]
    fn parents_children_comments_and_tests_make_no_cycle() {
        let crate_files = files(&[
            ("main.rs", "mod ops;\nuse crate::ops::relay::answer;\n"),
            ("ops/mod.rs", "pub(crate) mod relay;\n"),
            (
                "ops/relay/mod.rs",
                "pub(crate) mod answer;\nuse self::answer::Reply;\n",
            ),
            (
                "ops/relay/answer.rs",
                "use super::Scope; // crate::ops::relay::install\nuse crate::ops::Shared;\n\n#[cfg(test)]\nmod tests {\n    use crate::main_helper;\n}\n",
            ),
            ("ops/relay/tests.rs", "use crate::ops::relay::answer;\n"),
        ]);
        assert_eq!(check_cycles("src", &crate_files, &[]), Vec::<String>::new());
    }

    #[test]
    fn two_siblings_naming_each_other_fail() {
        let crate_files = files(&[
            ("ui/list.rs", "use super::trust::row;\n"),
            (
                "ui/trust.rs",
                "pub(crate) fn row() { crate::ui::list::width(); }\n",
            ),
        ]);
        let problems = check_cycles("src", &crate_files, &[]);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(problems[0].contains("src/ui/list.rs -> src/ui/trust.rs -> src/ui/list.rs"));
    }

    #[test]
    fn a_glob_import_is_an_edge_to_every_sibling_outside_tests_and_exempt_folders() {
        // (what `b.rs` holds, whether the crate has a cycle): `a.rs` names `b.rs`, so `b.rs`
        // closing the loop by any spelling is a cycle.
        let table = [
            ("use super::*;\n", true),
            ("use crate::install::{self, *};\n", true),
            ("use super::c::*;\n", false),
            ("#[cfg(test)]\nmod tests {\n    use super::*;\n}\n", false),
            (
                "#[cfg(all(test, unix))]\nmod tests {\n    use super::*;\n}\n",
                false,
            ),
            ("use super::a::Thing;\n", true),
        ];
        for (b, cycle) in table {
            let crate_files = files(&[
                ("install/mod.rs", "mod a;\nmod b;\nmod c;\n"),
                ("install/a.rs", "use super::b::Plan;\n"),
                ("install/b.rs", b),
                ("install/c.rs", "pub(crate) struct Other;\n"),
            ]);
            let problems = check_cycles("src", &crate_files, &[]);
            assert_eq!(problems.len(), usize::from(cycle), "{b:?}: {problems:#?}");
            if cycle {
                assert!(
                    problems[0]
                        .contains("src/install/a.rs -> src/install/b.rs -> src/install/a.rs"),
                    "{problems:#?}"
                );
            }
            // An exempt folder's globs are no edges; its named imports still are.
            let exempt = check_cycles("src", &crate_files, &["install/"]);
            assert_eq!(
                exempt.len(),
                usize::from(b == "use super::a::Thing;\n"),
                "{b:?}: {exempt:#?}"
            );
        }
    }
}

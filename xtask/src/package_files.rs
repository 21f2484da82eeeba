//! `cargo xtask package-files`: each published crate's package holds what the crate needs to
//! build and what its manifest names: its manifest, README and licence files, every source file
//! under `src/`, and every file its sources embed with `include_str!` or `include_bytes!` (the
//! JSON Schemas `hook-protocol` embeds live outside `src/`). `cargo package --no-verify` alone
//! would not notice a package that cannot build.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The crates published: the library crates and the `hook` command.
fn crates() -> Vec<&'static str> {
    let mut crates = crate::api_snapshot::CRATES.to_vec();
    crates.push("hook-cli");
    crates
}

/// Checks every published crate's file list; fails naming each missing file.
pub(crate) fn run(root: &Path) -> Result<()> {
    let mut missing = Vec::new();
    let mut checked = 0;
    for krate in crates() {
        let listed = package_list(root, krate)?;
        let dir = root.join(krate);
        for needed in needed_files(&dir)? {
            checked += 1;
            if !listed.contains(&needed) {
                missing.push(format!("{krate}: {needed}"));
            }
        }
    }
    if missing.is_empty() {
        println!(
            "the packages of {} crates hold the {checked} files their crates need",
            crates().len()
        );
        return Ok(());
    }
    for line in &missing {
        eprintln!("  missing from the package: {line}");
    }
    bail!(
        "{} file(s) a crate needs are not in its package: add them to `include` in its Cargo.toml",
        missing.len()
    )
}

/// `cargo package --list`: the files of the package, relative to the crate.
fn package_list(root: &Path, krate: &str) -> Result<BTreeSet<String>> {
    let stdout = crate::cargo_stdout(
        root,
        &["package", "--list", "--allow-dirty", "--quiet", "-p", krate],
    )?;
    Ok(String::from_utf8_lossy(&stdout)
        .lines()
        .map(str::to_owned)
        .collect())
}

/// What the crate in `dir` needs in its package, relative to `dir`.
fn needed_files(dir: &Path) -> Result<BTreeSet<String>> {
    let mut needed: BTreeSet<String> = ["Cargo.toml", "README.md", "LICENSE-MIT", "LICENSE-APACHE"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    let mut sources = Vec::new();
    collect_rs(&dir.join("src"), &mut sources)?;
    for source in sources {
        needed.insert(relative(dir, &source));
        let text = std::fs::read_to_string(&source)
            .with_context(|| format!("reading {}", source.display()))?;
        for embedded in embedded_paths(&text) {
            let path = normalize(&source.parent().unwrap_or(dir).join(embedded));
            needed.insert(relative(dir, &path));
        }
    }
    Ok(needed)
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            collect_rs(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The literal paths of `include_str!("...")` and `include_bytes!("...")` in a source (not
/// those in comments or in strings that only mention the macro).
fn embedded_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        for macro_name in ["include_str!(\"", "include_bytes!(\""] {
            let mut rest = code;
            while let Some(at) = rest.find(macro_name) {
                let after = &rest[at + macro_name.len()..];
                // A macro call spelled inside a string literal (`"include_str!(\"...`) is text.
                if rest[..at].ends_with('\\') || rest[..at].matches('"').count() % 2 == 1 {
                    rest = after;
                    continue;
                }
                if let Some(end) = after.find('"') {
                    paths.push(after[..end].to_owned());
                }
                rest = after;
            }
        }
    }
    paths
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn relative(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::embedded_paths;

    #[test]
    fn embedded_paths_are_the_macro_calls_only() {
        let text = r#"
    ("a.json", include_str!("../../schemas/a.json")),
// include_str!("commented.json")
    let s = "    (\"{path}\", include_str!(\"../../schemas/{path}\")),\n";
    static B: &[u8] = include_bytes!("blob.bin");
"#;
        assert_eq!(embedded_paths(text), ["../../schemas/a.json", "blob.bin"]);
    }
}

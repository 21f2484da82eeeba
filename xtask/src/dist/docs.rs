//! What the packages `cargo xtask dist` writes carry as documentation besides the README: the
//! binary's own man pages ([`man_pages`]), and the check that no file names a placeholder
//! address ([`placeholder_urls`]), which `pack::write_all` and tidy run. hook-cli's tests
//! include this file (`#[path]`) beside `pack.rs`.

use std::path::Path;

use anyhow::{Context, Result, bail};

/// The man pages of `binary`, which `hook man --out DIR` writes (`hook.1`, then one per
/// command): (file name, roff), by name. The binary must run here.
pub(crate) fn man_pages(binary: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    let dir = tempfile::tempdir().context("creating a folder for the man pages")?;
    let out = std::process::Command::new(binary)
        .args(["man", "--quiet", "--out"])
        .arg(dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .with_context(|| {
            format!(
                "cannot run {} to write its man pages (`hook man --out DIR`): package a binary on a machine that runs it",
                binary.display()
            )
        })?;
    if !out.status.success() {
        bail!(
            "{} man --out DIR failed ({}): {}",
            binary.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(dir.path())? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .with_context(|| format!("{}: not a UTF-8 file name", path.display()))?
            .to_owned();
        pages.push((name, std::fs::read(&path)?));
    }
    pages.sort();
    if !pages.iter().any(|(name, _)| name == "hook.1") {
        bail!(
            "{} man --out DIR wrote no hook.1: is it the hook binary?",
            binary.display()
        );
    }
    Ok(pages)
}

/// The placeholder addresses in `text`: each `http://` or `https://` URL whose host is
/// `example.com`, `example.org`, `example.net` (or under one), or whose place on GitHub is
/// `github.com/example/`.
pub(crate) fn placeholder_urls(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (start, _) in text.match_indices("://") {
        let scheme = text[..start]
            .bytes()
            .rev()
            .take_while(u8::is_ascii_alphanumeric)
            .count();
        let scheme_start = start - scheme;
        if !matches!(&text[scheme_start..start], "http" | "https") {
            continue;
        }
        let rest = &text[start + 3..];
        let end = rest
            .find(|c: char| c.is_whitespace() || "\"'<>)]`".contains(c))
            .unwrap_or(rest.len());
        let url = &rest[..end];
        let (host, path) = url.split_at(url.find('/').unwrap_or(url.len()));
        let host = host.to_ascii_lowercase();
        let example_host = ["example.com", "example.org", "example.net"]
            .iter()
            .any(|domain| host == *domain || host.ends_with(&format!(".{domain}")));
        let example_repo = host == "github.com" && path.starts_with("/example/");
        if example_host || example_repo {
            found.push(text[scheme_start..start + 3 + end].to_owned());
        }
    }
    found
}

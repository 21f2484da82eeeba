//! No file that ships in a package names a placeholder address (`https://example.com/...`,
//! `https://github.com/example/...`): the project has no public home yet, so the packages name
//! none and carry their documentation instead. Checked: the workspace's `Cargo.toml` (its
//! `[workspace.package]` fields reach every crate's manifest), each crate's `Cargo.toml` and
//! `README.md` (the crate packages), and `packaging/` (the npm packages and the wheel, whose
//! written files `cargo xtask dist` also checks as it writes them: `dist::pack::write_all`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::dist::docs::placeholder_urls;

/// The files checked: the workspace manifest, each crate folder's manifest and README, every
/// file under `packaging/`.
fn shipped_files(root: &Path, crate_folders: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = vec![root.join("Cargo.toml")];
    for folder in crate_folders {
        files.push(folder.join("Cargo.toml"));
        files.push(folder.join("README.md"));
    }
    let mut pending = vec![root.join("packaging")];
    while let Some(folder) = pending.pop() {
        for entry in
            std::fs::read_dir(&folder).with_context(|| format!("reading {}", folder.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.retain(|file| file.is_file());
    files.sort();
    Ok(files)
}

/// One problem per file that names a placeholder address, with the addresses.
pub(crate) fn check_placeholders(root: &Path, crate_folders: &[PathBuf]) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for file in shipped_files(root, crate_folders)? {
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("reading {}", file.display()))?;
        let urls = placeholder_urls(&text);
        if !urls.is_empty() {
            let shown = file.strip_prefix(root).unwrap_or(&file).display();
            problems.push(format!(
                "{shown}: names the placeholder address {}: the project has no public home yet, so a package names none (remove it, or say in words what the reader needs)",
                urls.join(", ")
            ));
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use crate::dist::docs::placeholder_urls;

    #[test]
    fn placeholder_addresses_are_found_and_others_are_not() {
        // (text, the placeholders it names)
        let table: [(&str, &[&str]); 9] = [
            (
                "repository = \"https://github.com/example/hook-engine\"",
                &["https://github.com/example/hook-engine"],
            ),
            (
                "[README](https://github.com/example/hook-engine#readme).",
                &["https://github.com/example/hook-engine#readme"],
            ),
            ("see http://example.com/x and", &["http://example.com/x"]),
            (
                "<https://docs.example.org/a>",
                &["https://docs.example.org/a"],
            ),
            ("HTTPS://Example.NET", &[]),
            ("https://www.npmjs.com/package/hook-engine", &[]),
            (
                "https://github.com/examples/x https://github.com/rust-lang/cargo",
                &[],
            ),
            // Not an address: a domain rule, a bare name.
            ("WebFetch(domain:example.com) example.com", &[]),
            // Text that is not ASCII around it (the address runs to the next space).
            ("“https://example.com/é” x", &["https://example.com/é”"]),
        ];
        for (text, expected) in table {
            assert_eq!(placeholder_urls(text), expected, "{text}");
        }
    }
}

//! `cargo xtask public-api [--bless]`: the public API of each library crate, one item a line in
//! `api/<crate>.txt`, so a change to it (an accidental break above all) fails CI until the file
//! is updated on purpose and reviewed.
//!
//! The list is read from rustdoc's JSON output (`--output-format json`, unstable: run with
//! `RUSTC_BOOTSTRAP=1` on the stable toolchain, which this sets for its own `cargo doc` call
//! only; the JSON format is pinned by the toolchain, so a new Rust may reword lines: bless them
//! after reading the diff), built as the workspace builds it, which turns every feature of the
//! crate on (checked with `cargo metadata`), so feature-gated items are listed too. Each line is
//! an item at the path an embedder names it by (re-exports followed, private modules
//! left out): functions and methods with their signatures, struct fields, enum variants with
//! their fields, trait items, constants, statics, type aliases, macros, the traits each type
//! implements (`Send` and `Sync` included: losing either breaks callers) and
//! `#[non_exhaustive]`. Types are written by their last path segment, so moving an item between
//! private modules changes nothing; renaming, removing or changing the signature of a public
//! item does.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::Value;

mod render;

use render::{args, bounds, function, generics, last, ty};

/// The library crates whose API is recorded.
pub(crate) const CRATES: &[&str] = &[
    "hook-fs",
    "hook-protocol",
    "hook-config",
    "hook-trust",
    "hook-exec",
    "hook-sdk",
    "hook-guards",
];

/// Writes (`bless`) or checks `api/<crate>.txt` for every library crate.
pub(crate) fn run(root: &Path, bless: bool) -> Result<()> {
    check_every_feature_is_on(root)?;
    document(root)?;
    let mut stale = Vec::new();
    for krate in CRATES {
        let listed = list(root, krate)?;
        let file = root.join("api").join(format!("{krate}.txt"));
        let committed = std::fs::read_to_string(&file).unwrap_or_default();
        if committed == listed {
            continue;
        }
        if bless {
            std::fs::create_dir_all(root.join("api"))?;
            std::fs::write(&file, &listed)
                .with_context(|| format!("writing {}", file.display()))?;
            println!("wrote api/{krate}.txt");
        } else {
            stale.push((krate, diff(&committed, &listed)));
        }
    }
    if stale.is_empty() {
        if !bless {
            println!(
                "the public API of {} crates is as recorded in api/",
                CRATES.len()
            );
        }
        return Ok(());
    }
    for (krate, diff) in &stale {
        eprintln!("api/{krate}.txt differs from the crate's public API:\n{diff}");
    }
    bail!(
        "the public API changed ({}): if that is intended, run `cargo xtask public-api --bless`, commit api/ and note the change in CHANGELOG.md",
        stale
            .iter()
            .map(|(krate, _)| **krate)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Lines only in the committed file (`-`, removed from the API) and only in the crate (`+`).
fn diff(committed: &str, listed: &str) -> String {
    let old: BTreeSet<&str> = committed.lines().collect();
    let new: BTreeSet<&str> = listed.lines().collect();
    let mut out = String::new();
    for line in old.difference(&new) {
        out.push_str(&format!("  - {line}\n"));
    }
    for line in new.difference(&old) {
        out.push_str(&format!("  + {line}\n"));
    }
    out
}

/// The public API of `krate`, sorted, one item a line.
fn list(root: &Path, krate: &str) -> Result<String> {
    let json = json_path(root, krate);
    let text = std::fs::read_to_string(&json).with_context(|| format!("{}", json.display()))?;
    let doc: Value = serde_json::from_str(&text)?;
    let mut walker = Walker {
        doc: &doc,
        lines: BTreeSet::new(),
        seen: HashSet::new(),
    };
    let root_id = id_key(&doc["root"]);
    let name = krate.replace('-', "_");
    walker.item(&root_id, &name);
    let mut out = format!(
        "# The public API of {krate} (all features), written by `cargo xtask public-api --bless`.\n"
    );
    for line in walker.lines {
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// `cargo xtask docs`: rustdoc's JSON backend over every crate of the workspace (libraries,
/// binaries and examples) with warnings as errors, so every public item is documented and
/// every intra-doc link resolves; the JSON of [`CRATES`] is what [`run`] reads.
///
/// One pass serves both the documentation check and the public API ([`run`] calls this; two
/// passes, one of them HTML, took twice the time in `.ci/run`). Selecting `--examples` brings
/// the dev-dependencies into cargo's feature resolution, so the dependencies are the ones
/// `cargo clippy --all-targets` has just checked and nothing is checked again; the library
/// crates then have every feature on (the workspace turns each one on somewhere:
/// [`check_every_feature_is_on`]).
/// Each call documents every crate again: cargo looks for the HTML it did not ask for.
pub(crate) fn document(root: &Path) -> Result<()> {
    let mut command = crate::cargo_command(root);
    // rustdoc alone needs RUSTC_BOOTSTRAP (JSON output is unstable). Set for cargo, it would
    // reach rustc too and change every dependency's fingerprint: `.ci/run` re-checked them all
    // here, and rebuilt xtask for the next step. A wrapper gives it to rustdoc only.
    match bootstrapped_rustdoc(root) {
        Some(wrapper) => command.env("RUSTDOC", wrapper),
        None => command.env("RUSTC_BOOTSTRAP", "1"),
    };
    command
        .env(
            "RUSTDOCFLAGS",
            "-D warnings -Z unstable-options --output-format json",
        )
        .args(["doc", "--quiet", "--workspace", "--no-deps"])
        .args(["--lib", "--bins", "--examples", "--locked"]);
    let status = command.status().context("running cargo doc")?;
    if !status.success() {
        bail!(
            "cargo doc failed: document every public item and mend every link rustdoc names above (warnings are errors)"
        );
    }
    Ok(())
}

/// Fails naming each feature of a crate of [`CRATES`] that the workspace's own build leaves off:
/// [`document`] documents the workspace as it builds, so such a feature's items would be missing
/// from `api/<crate>.txt` without a word.
fn check_every_feature_is_on(root: &Path) -> Result<()> {
    // This machine's platform only: the whole resolve would fetch every other platform's
    // crates (Windows' among them) just to read their manifests.
    let host = host_triple()?;
    let stdout = crate::cargo_stdout(
        root,
        &[
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--filter-platform",
            &host,
        ],
    )?;
    let metadata: Value =
        serde_json::from_slice(&stdout).context("reading cargo metadata's JSON")?;
    let off = features_left_off(&metadata);
    if off.is_empty() {
        return Ok(());
    }
    bail!(
        "the workspace builds {} without feature(s) it declares, so `cargo xtask public-api` would not list their items: turn each on in a workspace member's dependency on the crate (xtask's, for one no member needs)",
        off.join(", ")
    )
}

/// The platform rustc compiles for by default (`host:` of `rustc -vV`).
fn host_triple() -> Result<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(&rustc)
        .arg("-vV")
        .output()
        .with_context(|| format!("running {rustc} -vV"))?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_owned)
        .with_context(|| format!("{rustc} -vV printed no `host:` line"))
}

/// `crate/feature` for each declared feature of a crate of [`CRATES`] that `metadata`'s
/// resolve (the workspace, dev-dependencies included) does not turn on.
fn features_left_off(metadata: &Value) -> Vec<String> {
    let empty = Vec::new();
    let packages = metadata["packages"].as_array().unwrap_or(&empty);
    let nodes = metadata["resolve"]["nodes"].as_array().unwrap_or(&empty);
    let mut off = Vec::new();
    for krate in CRATES {
        let Some(package) = packages
            .iter()
            .find(|p| p["name"] == *krate && p["source"].is_null())
        else {
            off.push(format!("{krate} (not in cargo metadata)"));
            continue;
        };
        let on: BTreeSet<&str> = nodes
            .iter()
            .find(|node| node["id"] == package["id"])
            .and_then(|node| node["features"].as_array())
            .map(|features| features.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let declared = package["features"].as_object();
        for feature in declared.into_iter().flat_map(|features| features.keys()) {
            if !on.contains(feature.as_str()) {
                off.push(format!("{krate}/{feature}"));
            }
        }
    }
    off
}

/// A script that runs the real rustdoc (`$RUSTDOC`, else `rustdoc`) with `RUSTC_BOOTSTRAP=1`,
/// written under the target folder; `None` where it cannot be (not Unix, or not writable).
fn bootstrapped_rustdoc(root: &Path) -> Option<PathBuf> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target"));
        let dir = target.join("xtask");
        std::fs::create_dir_all(&dir).ok()?;
        let script = dir.join("rustdoc-bootstrapped");
        let real = std::env::var("RUSTDOC").unwrap_or_else(|_| "rustdoc".to_owned());
        let text = format!(
            "#!/bin/sh\nRUSTC_BOOTSTRAP=1 exec '{}' \"$@\"\n",
            real.replace('\'', "'\\''")
        );
        if std::fs::read_to_string(&script).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&script, text).ok()?;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).ok()?;
        }
        Some(script)
    }
    #[cfg(not(unix))]
    {
        let _ = root;
        None
    }
}

/// The JSON rustdoc wrote for `krate`.
fn json_path(root: &Path, krate: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    target
        .join("doc")
        .join(format!("{}.json", krate.replace('-', "_")))
}

/// An id as the key of rustdoc's `index` (numbers in format 57, strings before).
fn id_key(id: &Value) -> String {
    match id {
        Value::String(id) => id.clone(),
        other => other.to_string(),
    }
}

struct Walker<'a> {
    doc: &'a Value,
    lines: BTreeSet<String>,
    /// (id, path) pairs already listed: an item re-exported twice is listed at both paths.
    seen: HashSet<(String, String)>,
}

impl Walker<'_> {
    fn get(&self, id: &Value) -> Option<&Value> {
        self.doc["index"].get(id_key(id))
    }

    fn line(&mut self, line: String) {
        self.lines.insert(line);
    }

    /// Lists item `id`, named `path` (the path an embedder uses).
    fn item(&mut self, id: &str, path: &str) {
        if !self.seen.insert((id.to_owned(), path.to_owned())) {
            return;
        }
        let Some(item) = self.doc["index"].get(id) else {
            return;
        };
        let item = item.clone();
        let inner = &item["inner"];
        let attrs = if non_exhaustive(&item) {
            "#[non_exhaustive] "
        } else {
            ""
        };
        let Some((kind, body)) = inner.as_object().and_then(|o| o.iter().next()) else {
            return;
        };
        match kind.as_str() {
            "module" => {
                if path.contains("::") {
                    self.line(format!("pub mod {path}"));
                }
                for child in body["items"].as_array().into_iter().flatten() {
                    let Some(child_item) = self.get(child) else {
                        continue;
                    };
                    if child_item["visibility"] != "public" {
                        continue;
                    }
                    let child_item = child_item.clone();
                    self.child(&id_key(child), &child_item, path);
                }
            }
            "struct" => {
                self.line(format!(
                    "{attrs}pub struct {path}{}",
                    generics(&body["generics"])
                ));
                let kind = &body["kind"];
                let fields: Vec<&Value> = if let Some(plain) = kind.get("plain") {
                    plain["fields"].as_array().into_iter().flatten().collect()
                } else if let Some(tuple) = kind.get("tuple") {
                    tuple.as_array().into_iter().flatten().collect()
                } else {
                    Vec::new()
                };
                for field in fields {
                    if let Some(field) = self.get(field).cloned()
                        && field["visibility"] == "public"
                    {
                        self.line(format!(
                            "pub {path}::{}: {}",
                            field["name"].as_str().unwrap_or("?"),
                            ty(&field["inner"]["struct_field"])
                        ));
                    }
                }
                self.impls(&body["impls"], path);
            }
            "enum" => {
                self.line(format!(
                    "{attrs}pub enum {path}{}",
                    generics(&body["generics"])
                ));
                for variant in body["variants"].as_array().into_iter().flatten() {
                    if let Some(variant) = self.get(variant).cloned() {
                        let vattrs = if non_exhaustive(&variant) {
                            "#[non_exhaustive] "
                        } else {
                            ""
                        };
                        let name = variant["name"].as_str().unwrap_or("?");
                        let fields = self.variant_fields(&variant["inner"]["variant"]["kind"]);
                        self.line(format!("{vattrs}{path}::{name}{fields}"));
                    }
                }
                self.impls(&body["impls"], path);
            }
            "union" => {
                self.line(format!("pub union {path}"));
                self.impls(&body["impls"], path);
            }
            "trait" => {
                let unsafe_ = if body["is_unsafe"] == true {
                    "unsafe "
                } else {
                    ""
                };
                let bounds = bounds(&body["bounds"]);
                let bounds = if bounds.is_empty() {
                    String::new()
                } else {
                    format!(": {bounds}")
                };
                self.line(format!(
                    "pub {unsafe_}trait {path}{}{bounds}",
                    generics(&body["generics"])
                ));
                for member in body["items"].as_array().into_iter().flatten() {
                    if let Some(member) = self.get(member).cloned() {
                        self.member(&member, path, "");
                    }
                }
            }
            "function" => self.line(format!("pub {}", function(path, body))),
            "constant" => self.line(format!("pub const {path}: {}", ty(&body["type"]))),
            "static" => self.line(format!("pub static {path}: {}", ty(&body["type"]))),
            "type_alias" => self.line(format!(
                "pub type {path}{} = {}",
                generics(&body["generics"]),
                ty(&body["type"])
            )),
            "macro" | "proc_macro" => self.line(format!("macro {path}!")),
            other => self.line(format!("pub {other} {path}")),
        }
    }

    /// A public child of a module: an item, or a `use` (followed when it names a local item).
    fn child(&mut self, id: &str, item: &Value, parent: &str) {
        if let Some(import) = item["inner"].get("use") {
            let name = import["name"].as_str().unwrap_or("?");
            let target = import["id"].clone();
            if import["is_glob"] == true {
                match self.get(&target).cloned() {
                    Some(module) => {
                        for child in module["inner"]["module"]["items"]
                            .as_array()
                            .into_iter()
                            .flatten()
                        {
                            if let Some(child_item) = self.get(child).cloned()
                                && child_item["visibility"] == "public"
                            {
                                self.child(&id_key(child), &child_item, parent);
                            }
                        }
                    }
                    None => self.line(format!(
                        "pub use {parent}::* (from {})",
                        import["source"].as_str().unwrap_or("?")
                    )),
                }
                return;
            }
            match self.get(&target) {
                Some(_) if !target.is_null() => {
                    self.item(&id_key(&target), &format!("{parent}::{name}"));
                }
                _ => self.line(format!(
                    "pub use {parent}::{name} = {}",
                    import["source"].as_str().unwrap_or("?")
                )),
            }
            return;
        }
        let Some(name) = item["name"].as_str() else {
            return;
        };
        self.item(id, &format!("{parent}::{name}"));
    }

    fn variant_fields(&self, kind: &Value) -> String {
        if let Some(tuple) = kind.get("tuple") {
            let types: Vec<String> = tuple
                .as_array()
                .into_iter()
                .flatten()
                .map(|field| match self.get(field) {
                    Some(field) => ty(&field["inner"]["struct_field"]),
                    None => "_".to_owned(),
                })
                .collect();
            return format!("({})", types.join(", "));
        }
        if let Some(record) = kind.get("struct") {
            let fields: Vec<String> = record["fields"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|field| self.get(field))
                .map(|field| {
                    format!(
                        "{}: {}",
                        field["name"].as_str().unwrap_or("?"),
                        ty(&field["inner"]["struct_field"])
                    )
                })
                .collect();
            return format!(" {{ {} }}", fields.join(", "));
        }
        String::new()
    }

    /// The public methods and constants of inherent impls, and the traits implemented.
    fn impls(&mut self, impls: &Value, path: &str) {
        for id in impls.as_array().into_iter().flatten() {
            let Some(block) = self.get(id).cloned() else {
                continue;
            };
            let block = &block["inner"]["impl"];
            if !block["blanket_impl"].is_null() {
                continue;
            }
            match block["trait"].as_object() {
                Some(tr) => {
                    let name = last(tr["path"].as_str().unwrap_or("?"));
                    let auto = block["is_synthetic"] == true;
                    if auto && !matches!(name, "Send" | "Sync") {
                        continue;
                    }
                    let negative = if block["is_negative"] == true {
                        "!"
                    } else {
                        ""
                    };
                    self.line(format!(
                        "impl{} {negative}{}{} for {path}",
                        generics(&block["generics"]),
                        name,
                        args(&tr["args"])
                    ));
                }
                None => {
                    for member in block["items"].as_array().into_iter().flatten() {
                        if let Some(member) = self.get(member).cloned()
                            && member["visibility"] == "public"
                        {
                            self.member(&member, path, "pub ");
                        }
                    }
                }
            }
        }
    }

    /// A method, associated constant or type of `path`.
    fn member(&mut self, member: &Value, path: &str, vis: &str) {
        let name = member["name"].as_str().unwrap_or("?");
        let at = format!("{path}::{name}");
        let inner = &member["inner"];
        if let Some(function_body) = inner.get("function") {
            self.line(format!("{vis}{}", function(&at, function_body)));
        } else if let Some(constant) = inner.get("assoc_const") {
            self.line(format!("{vis}const {at}: {}", ty(&constant["type"])));
        } else if let Some(assoc) = inner.get("assoc_type") {
            let bounds = bounds(&assoc["bounds"]);
            let value = if assoc["type"].is_null() {
                String::new()
            } else {
                format!(" = {}", ty(&assoc["type"]))
            };
            self.line(format!(
                "{vis}type {at}{}{value}",
                if bounds.is_empty() {
                    String::new()
                } else {
                    format!(": {bounds}")
                }
            ));
        }
    }
}

/// Whether the item carries `#[non_exhaustive]` (the attribute itself: `"non_exhaustive"` in
/// rustdoc's list, or its text; not another attribute that mentions it).
fn non_exhaustive(item: &Value) -> bool {
    item["attrs"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|attr| match attr {
            Value::String(name) => name == "non_exhaustive",
            Value::Object(other) => other
                .get("other")
                .and_then(Value::as_str)
                .is_some_and(|text| text.trim() == "#[non_exhaustive]"),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::features_left_off;

    /// The metadata of a workspace of the `CRATES`, where hook-exec declares `default`, `http`
    /// and `trust` and the resolve turns on `hook_exec_on`; the others declare none.
    fn metadata(hook_exec_on: &[&str]) -> serde_json::Value {
        let mut packages = Vec::new();
        let mut nodes = Vec::new();
        for krate in super::CRATES {
            let id = format!("path+file:///ws/{krate}#0.1.0");
            let declared = if *krate == "hook-exec" {
                json!({"default": ["http"], "http": [], "trust": []})
            } else {
                json!({})
            };
            let on = if *krate == "hook-exec" {
                json!(hook_exec_on)
            } else {
                json!([])
            };
            packages.push(json!({"name": krate, "id": id, "source": null, "features": declared}));
            nodes.push(json!({"id": id, "features": on}));
        }
        // A registry crate of the same name as a library crate is not the library crate.
        packages.push(json!({"name": "hook-exec", "id": "registry+x#hook-exec@9.0.0", "source": "registry+x", "features": {"other": []}}));
        json!({"packages": packages, "resolve": {"nodes": nodes}})
    }

    #[test]
    fn every_declared_feature_on_passes_and_each_left_off_is_named() {
        assert_eq!(
            features_left_off(&metadata(&["default", "http", "trust"])),
            Vec::<String>::new()
        );
        assert_eq!(
            features_left_off(&metadata(&["default", "http"])),
            vec!["hook-exec/trust".to_owned()]
        );
    }

    /// The filesystem toolkit is hook-fs's API and not hook-config's (issue 44: a general
    /// toolkit is not semver-bound in the crate vendors take for configuration). Read from the
    /// committed snapshots, which `cargo xtask public-api` keeps equal to the crates.
    #[test]
    fn the_filesystem_toolkit_is_hook_fs_api_not_hook_config_api() {
        let read = |krate: &str| {
            let path = crate::root().join("api").join(format!("{krate}.txt"));
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        };
        let config = read("hook-config");
        for gone in [
            "hook_config::fs",
            "hook_config::open_regular",
            "hook_config::read_capped",
            "hook_config::Links",
        ] {
            let found: Vec<&str> = config.lines().filter(|l| l.contains(gone)).collect();
            assert!(
                found.is_empty(),
                "api/hook-config.txt has {} line(s) naming {gone} (the first: {:?}): the filesystem toolkit is hook-fs's, use it from there",
                found.len(),
                found[0]
            );
        }
        let fs = read("hook-fs");
        for kept in [
            "pub fn hook_fs::open_lock(",
            "pub fn hook_fs::private_folder(",
            "pub fn hook_fs::open_regular(",
            "pub fn hook_fs::read_capped(",
            "pub fn hook_fs::digest_file(",
            "pub struct hook_fs::FileStamp",
            "pub struct hook_fs::Lines<R>",
            "pub enum hook_fs::Links",
        ] {
            assert!(
                fs.lines().any(|l| l.starts_with(kept)),
                "api/hook-fs.txt lacks {kept}"
            );
        }
    }
}

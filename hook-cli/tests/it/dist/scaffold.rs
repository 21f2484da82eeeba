//! Authoring from an npm install, with no checkout: `npm install -g hook-engine` from the
//! loopback registry (`super::registry`, install scripts on), then
//! the installed `hook new my-guard` in a folder outside the checkout, and the scaffold's own
//! `cargo test`, which passes against the packaged `hook-sdk` at the binary's version.
//!
//! No registry is reached: cargo runs with a fresh `CARGO_HOME` whose `config.toml` replaces
//! crates.io with a local registry (cargo's `local-registry` source: an `index/` in the
//! registry's layout beside the `.crate` files), made here from
//!
//! - the workspace's crates as `cargo package` writes them (`cargo package --workspace
//!   --exclude xtask --no-verify`, the `.crate` files crates.io would get), each indexed from
//!   the manifest cargo normalised into its package;
//! - the third-party crates of the workspace's `Cargo.lock`, from this machine's cargo cache:
//!   each one's index line as cargo cached it (`registry/index/*/.cache`), and its `.crate`
//!   where cargo downloaded it (`registry/cache`), linked, not copied.
//!
//! Why not a vendored `directory` source (`cargo vendor --offline`): cargo resolves for every
//! platform, so a directory source must hold the crates of every target (`windows-sys`,
//! `wasm-bindgen`...), which this machine never downloaded: `cargo vendor --offline` fails on
//! the first. A local registry resolves from its index alone and reads only the `.crate` files
//! it builds. Only the versions of the lock file are indexed, so the scaffold resolves to the
//! versions the workspace is tested with.
//!
//! The build is shared between runs: `<target>/hook-new-offline/` keeps the scaffold's target
//! folder, and the fresh `CARGO_HOME` and registry are laid at the same paths each run, so the
//! third-party crates compiled by an earlier run are fresh again (a registry crate's build is
//! keyed by its version and the path cargo unpacked it to). Cargo never looks at a registry
//! crate's files again, so `hook-protocol` and `hook-sdk`, the crates under test
//! ([`UNDER_TEST`]), are cleaned and built from this run's packages whenever these differ from
//! the packages of the kept build (`built-from`: their checksums). The workspace's own target
//! folder cannot be shared: the same crates unpacked elsewhere would overwrite its builds.

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use sha2::{Digest as _, Sha256};

use super::npm::npm_installed;
use crate::cli::text;

/// The workspace's crates the scaffold builds: `hook-sdk` and what it depends on.
const UNDER_TEST: [&str; 2] = ["hook-protocol", "hook-sdk"];

/// The registry cargo reaches for crates.io, in a source URL and in a lock file.
const CRATES_IO: &str = "registry+https://github.com/rust-lang/crates.io-index";

#[test]
fn hook_new_from_the_npm_install_builds_and_passes_against_the_packaged_sdk_offline() {
    let dir = tempfile::tempdir().unwrap();
    let Some(launcher) = npm_installed(dir.path()) else {
        return;
    };
    let shared = target_dir().join("hook-new-offline");
    std::fs::create_dir_all(&shared).unwrap();
    // One run at a time: another suite run on this target folder (another checkout's) waits.
    let lock = std::fs::File::create(shared.join("lock")).unwrap();
    lock.lock().unwrap();
    let registry = shared.join("registry");
    let cargo_home = shared.join("cargo-home");
    for fresh in [&registry, &cargo_home] {
        if fresh.exists() {
            std::fs::remove_dir_all(fresh).unwrap();
        }
    }
    let packaged = local_registry(&registry, dir.path());
    std::fs::create_dir_all(&cargo_home).unwrap();
    std::fs::write(
        cargo_home.join("config.toml"),
        format!(
            "[source.crates-io]\nreplace-with = \"packaged\"\n\n[source.packaged]\nlocal-registry = \"{}\"\n\n[net]\noffline = true\n",
            registry.display()
        ),
    )
    .unwrap();

    // The installed `hook`, in a folder outside the checkout, with a home of its own.
    let home = dir.path().join("home");
    let work = dir.path().join("work");
    assert!(
        !work.starts_with(workspace()),
        "{work:?} is inside the checkout"
    );
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let out = Command::new(&launcher)
        .args(["new", "my-guard"])
        .current_dir(&work)
        .env("HOME", &home)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "hook new: {}", text(&out.stderr));
    let guard = work.join("my-guard");
    let manifest = std::fs::read_to_string(guard.join("Cargo.toml")).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        manifest.contains(&format!("hook-sdk = \"={version}\"")),
        "{manifest}"
    );

    let cargo = |args: &[&str]| -> Output {
        let mut command = crate::cargo();
        command
            .args(args)
            .current_dir(&guard)
            .env("HOME", &home)
            .env("CARGO_HOME", &cargo_home)
            .env("CARGO_TARGET_DIR", shared.join("target"))
            .stdin(Stdio::null());
        // The toolchain running this suite: through rustup, `rustc` on PATH is a proxy that
        // looks for its toolchains under HOME, which is not the user's here.
        let rustc = Path::new(env!("CARGO")).with_file_name("rustc");
        if rustc.is_file() {
            command.env("RUSTC", rustc);
        }
        command.output().unwrap()
    };
    // The packages the kept builds of the workspace's crates were made from: the same
    // packages (a run again with no change to them) keep them.
    let stamp = shared.join("built-from");
    let packages: Vec<&str> = UNDER_TEST
        .iter()
        .map(|name| packaged[*name].as_str())
        .collect();
    let packages = packages.join("\n");
    if std::fs::read_to_string(&stamp).ok() != Some(packages.clone()) {
        let mut clean = vec!["clean", "--offline"];
        for name in UNDER_TEST {
            clean.extend(["-p", name]);
        }
        let out = cargo(&clean);
        assert!(out.status.success(), "cargo clean: {}", text(&out.stderr));
        std::fs::write(&stamp, packages).unwrap();
    }
    let out = cargo(&["test", "--offline", "-j", "2"]);
    let log = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{log}");
    assert!(log.contains("2 passed"), "{log}");

    // What was built is the packaged hook-sdk, from the registry, at the binary's version.
    let lock = std::fs::read_to_string(guard.join("Cargo.lock")).unwrap();
    let lock: toml::Table = toml::from_str(&lock).unwrap();
    let sdk = lock["package"]
        .as_array()
        .unwrap()
        .iter()
        .find(|package| package["name"].as_str() == Some("hook-sdk"))
        .unwrap();
    assert_eq!(sdk["version"].as_str(), Some(version));
    assert_eq!(sdk["source"].as_str(), Some(CRATES_IO));
    assert_eq!(
        sdk["checksum"].as_str(),
        Some(packaged["hook-sdk"].as_str())
    );
}

/// The target folder of this suite.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"))
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Writes the local registry into `registry` (see the module docs), `cargo package` writing
/// into `scratch`; the SHA-256 of each workspace crate's `.crate`, by name.
fn local_registry(registry: &Path, scratch: &Path) -> BTreeMap<String, String> {
    std::fs::create_dir_all(registry.join("index")).unwrap();
    let packages = scratch.join("package-target");
    let out = crate::cargo()
        .args([
            "package",
            "--workspace",
            "--exclude",
            "xtask",
            "--no-verify",
            "--allow-dirty",
            "--offline",
            "--quiet",
            "--target-dir",
        ])
        .arg(&packages)
        .current_dir(workspace())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "cargo package: {}", text(&out.stderr));
    let mut packaged = BTreeMap::new();
    for entry in std::fs::read_dir(packages.join("package")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "crate") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let line = index_line(&bytes);
        let name = line["name"].as_str().unwrap().to_owned();
        packaged.insert(name.clone(), line["cksum"].as_str().unwrap().to_owned());
        add_index_line(registry, &name, &line.to_string());
        std::fs::write(registry.join(path.file_name().unwrap()), bytes).unwrap();
    }
    assert!(packaged.contains_key("hook-sdk"), "{packaged:?}");

    let cache = cargo_cache();
    let lock = std::fs::read_to_string(workspace().join("Cargo.lock")).unwrap();
    let lock: toml::Table = toml::from_str(&lock).unwrap();
    for package in lock["package"].as_array().unwrap() {
        if package.get("source").and_then(|s| s.as_str()) != Some(CRATES_IO) {
            continue;
        }
        let (name, version) = (
            package["name"].as_str().unwrap(),
            package["version"].as_str().unwrap(),
        );
        let line = cached_index_line(&cache, name, version).unwrap_or_else(|| {
            panic!(
                "{name} {version} (in Cargo.lock) is not in the index cache under {}: run `cargo fetch` in the workspace",
                cache.display()
            )
        });
        add_index_line(registry, name, &line);
        let file = format!("{name}-{version}.crate");
        if let Some(cached) = in_cache(&cache.join("registry/cache"), &file) {
            std::os::unix::fs::symlink(cached, registry.join(&file)).unwrap();
        }
    }
    packaged
}

/// This machine's cargo home, where cargo keeps the registry's index and crates.
fn cargo_cache() -> PathBuf {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo"))
}

/// `file` in one of the registries' folders under `folder` (`registry/cache/<registry>/`).
fn in_cache(folder: &Path, file: &str) -> Option<PathBuf> {
    std::fs::read_dir(folder)
        .ok()?
        .filter_map(|entry| Some(entry.ok()?.path().join(file)))
        .find(|path| path.is_file())
}

/// A crate's file in a registry's index: `1/a`, `2/ab`, `3/a/abc`, `ab/cd/abcd...`.
fn index_path(name: &str) -> String {
    let name = name.to_ascii_lowercase();
    match name.len() {
        1 | 2 => format!("{}/{name}", name.len()),
        3 => format!("3/{}/{name}", &name[..1]),
        _ => format!("{}/{}/{name}", &name[..2], &name[2..4]),
    }
}

fn add_index_line(registry: &Path, name: &str, line: &str) {
    use std::io::Write as _;
    let path = registry.join("index").join(index_path(name));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .unwrap();
    writeln!(file, "{line}").unwrap();
}

/// The index line of `name` `version` as cargo cached it: a cache file is a version byte, a
/// 4-byte index version, the index's revision and a NUL, then each version and its JSON line,
/// each followed by a NUL.
fn cached_index_line(cargo_home: &Path, name: &str, version: &str) -> Option<String> {
    let folder = cargo_home.join("registry/index");
    for registry in std::fs::read_dir(folder).ok()? {
        let path = registry.ok()?.path().join(".cache").join(index_path(name));
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let mut fields = bytes.get(5..)?.split(|byte| *byte == 0).skip(1);
        while let (Some(vers), Some(line)) = (fields.next(), fields.next()) {
            if vers == version.as_bytes() {
                return String::from_utf8(line.to_vec()).ok();
            }
        }
    }
    None
}

/// The index line of a packaged crate (`.crate` bytes), from the manifest `cargo package`
/// normalised into it: every dependency a `[dependencies.NAME]`-style table with its version.
fn index_line(crate_file: &[u8]) -> serde_json::Value {
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(crate_file));
    let mut manifest = None;
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let path = entry.path().unwrap().into_owned();
        if path.components().count() == 2 && path.ends_with("Cargo.toml") {
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            manifest = Some(text);
        }
    }
    let manifest: toml::Table = toml::from_str(&manifest.unwrap()).unwrap();
    let package = &manifest["package"];
    let mut deps = Vec::new();
    let mut add = |table: &toml::Table, target: Option<&str>| {
        for (kind, section) in [
            ("normal", "dependencies"),
            ("dev", "dev-dependencies"),
            ("build", "build-dependencies"),
        ] {
            let Some(section) = table.get(section).and_then(|s| s.as_table()) else {
                continue;
            };
            for (name, dep) in section {
                let get = |key: &str| dep.get(key);
                deps.push(serde_json::json!({
                    "name": name,
                    "req": get("version").and_then(|v| v.as_str()).unwrap(),
                    "features": get("features").and_then(|f| f.as_array()).map_or(vec![], |f| {
                        f.iter().filter_map(|f| f.as_str()).collect::<Vec<_>>()
                    }),
                    "optional": get("optional").and_then(|o| o.as_bool()).unwrap_or(false),
                    "default_features": get("default-features").and_then(|d| d.as_bool()).unwrap_or(true),
                    "target": target,
                    "kind": kind,
                    "package": get("package").and_then(|p| p.as_str()),
                }));
            }
        }
    };
    add(&manifest, None);
    if let Some(targets) = manifest.get("target").and_then(|t| t.as_table()) {
        for (cfg, table) in targets {
            add(table.as_table().unwrap(), Some(cfg));
        }
    }
    let features = manifest
        .get("features")
        .map(|f| serde_json::to_value(f).unwrap())
        .unwrap_or_else(|| serde_json::json!({}));
    serde_json::json!({
        "name": package["name"].as_str().unwrap(),
        "vers": package["version"].as_str().unwrap(),
        "deps": deps,
        "features": features,
        "cksum": hex::encode(Sha256::digest(crate_file)),
        "yanked": false,
        "links": package.get("links").and_then(|l| l.as_str()),
    })
}

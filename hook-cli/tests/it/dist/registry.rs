//! npm as people run it, against a registry on the loopback: `npm install -g hook-engine`
//! resolves the platform package as an optional dependency from a registry and installs it
//! under the main package's own `node_modules`, which installing the two tarballs by path does
//! not. The registry is a thread of this test (std's `TcpListener` on 127.0.0.1, one
//! connection per request), serving what the real one serves for an install: a packument per
//! package (`versions` with each `package.json`, `dist.tarball`, `dist.integrity` and
//! `hasInstallScript`; `dist-tags.latest`) and the tarballs. The platform packages of the other
//! platforms get a packument too (their manifests from `pack.rs`, their tarballs never
//! fetched): npm reads them to see they do not fit this machine.

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;

use base64::Engine as _;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha512};

use super::{pack, skip_notice, works};
use crate::cli::text;

/// What the registry serves, by request path: a packument's JSON or a tarball's file.
enum Served {
    Json(Vec<u8>),
    File(PathBuf),
}

/// A registry serving `releases` (each the packages of one version) until the test ends.
pub(super) struct Registry {
    /// `http://127.0.0.1:PORT/`.
    pub(super) url: String,
}

impl Registry {
    /// Serves `releases`; the first is `latest`.
    pub(super) fn serve(releases: &[&pack::Written]) -> Registry {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let mut packuments: BTreeMap<String, Value> = BTreeMap::new();
        let mut served = BTreeMap::new();
        let mut versions = Vec::new();
        for release in releases {
            for tgz in [&release.npm_main, &release.npm_platform] {
                let mut manifest = pack::package_json(tgz).unwrap();
                let name = manifest["name"].as_str().unwrap().to_owned();
                let version = manifest["version"].as_str().unwrap().to_owned();
                let file = tgz.file_name().unwrap().to_str().unwrap();
                let integrity = base64::engine::general_purpose::STANDARD
                    .encode(Sha512::digest(std::fs::read(tgz).unwrap()));
                manifest["dist"] = json!({"tarball": format!("{url}{name}/-/{file}"),
                    "integrity": format!("sha512-{integrity}")});
                // What the real registry says of a package with install scripts.
                if manifest.pointer("/scripts/postinstall").is_some() {
                    manifest["hasInstallScript"] = json!(true);
                    versions.push(version.clone());
                }
                let packument = packuments.entry(name.clone()).or_insert_with(
                    || json!({"name": name, "dist-tags": {"latest": version}, "versions": {}}),
                );
                packument["versions"][&version] = manifest;
                served.insert(format!("/{name}/-/{file}"), Served::File(tgz.to_path_buf()));
            }
        }
        for platform in pack::PLATFORMS {
            let name = platform.npm_package();
            for version in &versions {
                let packument = packuments.entry(name.clone()).or_insert_with(
                    || json!({"name": name, "dist-tags": {"latest": version}, "versions": {}}),
                );
                if packument["versions"].get(version).is_none() {
                    let mut manifest = platform.npm_manifest(version);
                    manifest["dist"] = json!({"tarball": format!("{url}{name}/-/{name}-{version}.tgz"),
                        "integrity": "sha512-AAAA"});
                    packument["versions"][version] = manifest;
                }
            }
        }
        for (name, packument) in packuments {
            served.insert(
                format!("/{name}"),
                Served::Json(packument.to_string().into_bytes()),
            );
        }
        let served = Arc::new(served);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let served = Arc::clone(&served);
                std::thread::spawn(move || answer(stream, &served));
            }
        });
        Registry { url }
    }
}

/// Answers one request on `stream`, then closes it: a packument, a tarball, or a 404.
fn answer(stream: TcpStream, served: &BTreeMap<String, Served>) {
    let mut reader = BufReader::new(&stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // The headers, read to their end and not needed.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split('?').next().unwrap_or(path);
    let mut stream = &stream;
    let head = |status: &str, kind: &str, length: u64| {
        format!(
            "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
        )
    };
    // A tarball whose file the test removed is not found, as one the registry lacks.
    let file = match served.get(path) {
        Some(Served::File(file)) => std::fs::File::open(file).ok(),
        _ => None,
    };
    let _ = match (served.get(path), file) {
        (Some(Served::Json(json)), _) => stream
            .write_all(head("200 OK", "application/json", json.len() as u64).as_bytes())
            .and_then(|()| stream.write_all(json)),
        (Some(Served::File(_)), Some(mut file)) => file.metadata().and_then(|metadata| {
            let length = metadata.len();
            stream.write_all(head("200 OK", "application/octet-stream", length).as_bytes())?;
            std::io::copy(&mut file, &mut stream).map(drop)
        }),
        _ => stream
            .write_all(head("404 Not Found", "application/json", 2).as_bytes())
            .and_then(|()| stream.write_all(b"{}")),
    };
}

/// npm with a prefix, a cache and a registry of its own (and no user configuration: this
/// machine's `~/.npmrc` cannot turn install scripts off under the test).
pub(super) struct Npm {
    pub(super) prefix: PathBuf,
    dir: PathBuf,
    registry: String,
}

impl Npm {
    /// npm installing into `dir/prefix` from `registry`; `None`, said, without npm.
    pub(super) fn new(dir: &Path, registry: &Registry) -> Option<Npm> {
        if !works("npm", &["--version"]) {
            skip_notice("skipped: npm is not installed (the npm packages cannot be installed)");
            return None;
        }
        Some(Npm {
            prefix: dir.join("prefix"),
            dir: dir.to_path_buf(),
            registry: registry.url.clone(),
        })
    }

    /// `npm ARGS -g` into the prefix, from the registry.
    pub(super) fn run(&self, args: &[&str]) -> Output {
        Command::new("npm")
            .args(args)
            .args([
                "-g",
                "--no-audit",
                "--no-fund",
                "--registry",
                &self.registry,
            ])
            .arg("--prefix")
            .arg(&self.prefix)
            .arg("--cache")
            .arg(self.dir.join("npm-cache"))
            .env("npm_config_userconfig", self.dir.join("npmrc"))
            .env("npm_config_update_notifier", "false")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// [`Npm::run`], which must succeed: what npm printed (stdout, then stderr).
    pub(super) fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "npm {args:?}: {said}");
        said
    }

    /// `hook` as the prefix's `bin/` has it (npm's link).
    pub(super) fn hook(&self) -> PathBuf {
        self.prefix.join("bin/hook")
    }

    /// The main package's folder.
    pub(super) fn package(&self) -> PathBuf {
        self.prefix.join("lib/node_modules").join(pack::NPM_NAME)
    }

    /// The platform package's binary, where npm installs the optional dependency.
    pub(super) fn platform_binary(&self) -> PathBuf {
        self.package()
            .join("node_modules/hook-engine-linux-x64-gnu/bin/hook")
    }

    /// The `PATH` an agent runs entries with, the prefix's `bin/` first.
    pub(super) fn agent_path(&self) -> std::ffi::OsString {
        let mut paths = vec![self.prefix.join("bin")];
        paths.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        std::env::join_paths(paths).unwrap()
    }
}

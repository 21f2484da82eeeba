//! `cargo xtask dist [--target TRIPLE] [--binary PATH] [--out DIR] [--uncompressed]`: the
//! packages that install `hook` without a Rust toolchain, written under `dist/` in cargo's
//! target folder (or `--out`):
//!
//! - `hook-engine-<version>.tgz`: the npm package people install (`npm install -g
//!   hook-engine`). Its `hook` command (`bin/hook`) ships as a small Node launcher
//!   (`packaging/npm/hook.js`) that runs the binary of the platform package npm picked among
//!   its optional dependencies; its `postinstall` (`packaging/npm/install.js`) runs that binary
//!   with `--version` and, when it answers with this version, links (else copies) it over
//!   `bin/hook` (a temporary file renamed over it), so `hook` on `PATH` is the native binary
//!   and an agent's entry that starts `hook` starts no Node. Any failure keeps the launcher,
//!   says why in one line (each start then pays a Node start, about 70 ms; `npm rebuild -g
//!   hook-engine` runs the postinstall again) and never fails the install; with install
//!   scripts off (`--ignore-scripts`) the launcher stays, and works;
//! - `hook-engine-<platform>-<version>.tgz`: that platform package, holding the binary;
//! - `hook_engine-<version>-py3-none-<platform>.whl`: a wheel whose only script is the binary
//!   (`pip install hook-engine`, `pipx install hook-engine`).
//!
//! The launcher's package and the wheel carry the documentation: the README
//! (`packaging/README.md`, whole: what `hook` is, installing, setting up, a tour of the CLI)
//! and the man pages, which the binary itself writes (`hook man --out DIR`, generated from its
//! clap definition): so the binary packaged must run on this machine, as it does on each
//! release runner (`.github/workflows/release.yml` builds every target on its own kind of
//! machine).
//!
//! Without `--binary`, it first builds the release binary (`cargo build --release --locked -p
//! hook-cli`, with `--target` when given); `--binary` packages one already built instead (a
//! debug build, to try the packages quickly; hook-cli's tests package theirs through
//! `pack.rs`, this command's own code). `--target` says what the binary was built for
//! (default: this machine's). `--uncompressed` stores the files as they are (quick, for a
//! 60 MB debug binary that is only tried). Each package is read back and checked to hold
//! exactly the files it needs (`pack.rs`), as `cargo xtask package-files` checks the crates'.
//!
//! The target folder is cargo's own ([`target_dir`]: `target_directory` of `cargo metadata`,
//! which follows `CARGO_TARGET_DIR` and `build.target-dir`), never an assumed `target/`: the
//! binary is looked for where cargo built it. Each step (what it builds, where it writes) is
//! said on stderr as it starts; the packages written are listed on stdout at the end.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use anyhow::{Context, Result, bail};

pub(crate) mod docs;
pub(crate) mod pack;

use pack::{Compression, Meta};

/// The Rust target of this machine, when the release builds it.
pub(crate) fn host_target() -> Result<&'static str> {
    let target = match (
        std::env::consts::ARCH,
        std::env::consts::OS,
        cfg!(target_env = "musl"),
    ) {
        ("x86_64", "linux", false) => "x86_64-unknown-linux-gnu",
        ("x86_64", "linux", true) => "x86_64-unknown-linux-musl",
        ("aarch64", "linux", false) => "aarch64-unknown-linux-gnu",
        ("aarch64", "linux", true) => "aarch64-unknown-linux-musl",
        ("x86_64", "macos", _) => "x86_64-apple-darwin",
        ("aarch64", "macos", _) => "aarch64-apple-darwin",
        (arch, os, _) => bail!(
            "no package is made for {arch} {os} (Windows is not supported: the engine's process handling is Unix-only); name a --target"
        ),
    };
    Ok(target)
}

/// `cargo xtask dist ARGS`.
pub(crate) fn run(root: &Path, args: &[&str]) -> Result<()> {
    let mut target = None;
    let mut binary = None;
    let mut out = None;
    let mut compression = Compression::Best;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        if *flag == "--uncompressed" {
            compression = Compression::Stored;
            continue;
        }
        let value = rest
            .next()
            .with_context(|| format!("{flag} needs a value"))?;
        match *flag {
            "--target" => target = Some((*value).to_owned()),
            "--binary" => binary = Some(PathBuf::from(value)),
            "--out" => out = Some(PathBuf::from(value)),
            other => bail!(
                "unknown option {other}: cargo xtask dist [--target TRIPLE] [--binary PATH] [--out DIR] [--uncompressed]"
            ),
        }
    }
    let platform = match &target {
        Some(target) => pack::platform(target)?,
        None => pack::platform(host_target()?)?,
    };
    // Cargo's target folder, needed unless both the binary and the folder to write are given.
    let target_dir = if binary.is_none() || out.is_none() {
        let dir = target_dir(root)?;
        eprintln!("dist: cargo's target folder is {}", dir.display());
        Some(dir)
    } else {
        None
    };
    let binary = match (binary, &target_dir) {
        (Some(binary), _) => binary,
        (None, Some(dir)) => build(root, dir, target.as_deref())?,
        (None, None) => bail!("no binary to package and no target folder to build it in"),
    };
    let out = match (out, &target_dir) {
        (Some(out), _) => out,
        (None, Some(dir)) => dir.join("dist"),
        (None, None) => bail!("no folder to write the packages in: give --out"),
    };
    // The pages of the binary packaged, from its own command line.
    let man = docs::man_pages(&binary)?;
    let meta = Meta {
        version: env!("CARGO_PKG_VERSION"),
        root,
        man: &man,
    };
    eprintln!(
        "dist: packaging {} ({}, {}) into {}: the npm packages (the main one, the platform's) and the wheel{}, each read back and checked",
        binary.display(),
        meta.version,
        platform.label,
        out.display(),
        match compression {
            Compression::Best => "",
            Compression::Stored => ", uncompressed",
        }
    );
    let written = pack::write_all(&meta, platform, &binary, &out, compression)?;
    println!(
        "packaged {} ({}) for {}:",
        binary.display(),
        meta.version,
        platform.label
    );
    for path in [&written.npm_main, &written.npm_platform, &written.wheel] {
        let size = std::fs::metadata(path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .len();
        println!("  {} ({:.1} MB)", path.display(), size as f64 / 1e6);
    }
    println!(
        "each holds exactly the files it needs. Install them offline with\n  npm install -g {} {}\n  pipx install {}",
        written.npm_main.display(),
        written.npm_platform.display(),
        written.wheel.display()
    );
    Ok(())
}

/// Builds the release binary in `target_dir` (cargo's target folder, [`target_dir`]), for
/// `target` when one is named (`<target_dir>/<target>/release/hook`), else for this machine
/// (`<target_dir>/release/hook`); its path.
fn build(root: &Path, target_dir: &Path, target: Option<&str>) -> Result<PathBuf> {
    let mut args = vec![
        "build",
        "--release",
        "--locked",
        "-p",
        "hook-cli",
        "--bin",
        "hook",
    ];
    if let Some(target) = target {
        args.extend(["--target", target]);
    }
    let binary = release_binary(target_dir, target);
    eprintln!(
        "dist: building the release binary {} (cargo {}; cargo shows its progress)",
        binary.display(),
        args.join(" ")
    );
    let status = crate::cargo_command(root)
        .args(&args)
        .status()
        .context("running cargo build --release")?;
    if !status.success() {
        bail!("cargo build --release -p hook-cli failed");
    }
    Ok(binary)
}

/// Where cargo puts the release `hook` in `target_dir`: `<target_dir>/<target>/release/hook`
/// for a named target, else `<target_dir>/release/hook`.
fn release_binary(target_dir: &Path, target: Option<&str>) -> PathBuf {
    let folder = match target {
        Some(target) => target_dir.join(target),
        None => target_dir.to_path_buf(),
    };
    folder.join("release").join("hook")
}

/// Cargo's target folder for the workspace at `root`, as cargo itself resolves it
/// (`CARGO_TARGET_DIR`, `build.target-dir`, else `<root>/target`).
pub(crate) fn target_dir(root: &Path) -> Result<PathBuf> {
    target_dir_of(crate::cargo_command(root))
}

/// `target_directory` from `cargo metadata`, run as `cargo` (its environment and folder).
fn target_dir_of(mut cargo: Command) -> Result<PathBuf> {
    let output = cargo
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .output()
        .context("running cargo metadata to find the target folder")?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed, so the target folder is not known:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let metadata: Value =
        serde_json::from_slice(&output.stdout).context("reading cargo metadata's JSON")?;
    let dir = metadata["target_directory"]
        .as_str()
        .context("cargo metadata names no target_directory")?;
    Ok(PathBuf::from(dir))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    /// The target folder is cargo's: `CARGO_TARGET_DIR` when set (relative to where cargo
    /// runs), else the workspace's `target/` (no `build.target-dir` in this repository's
    /// `.cargo/config.toml`); the binary is looked for under it.
    #[test]
    fn the_target_folder_is_the_one_cargo_uses() {
        let root = crate::root();
        let elsewhere = tempfile::tempdir().unwrap();
        let mut cargo = crate::cargo_command(&root);
        cargo.env("CARGO_TARGET_DIR", elsewhere.path());
        assert_eq!(super::target_dir_of(cargo).unwrap(), elsewhere.path());
        let mut cargo = crate::cargo_command(&root);
        cargo.env("CARGO_TARGET_DIR", "relative/build");
        assert_eq!(
            super::target_dir_of(cargo).unwrap(),
            root.join("relative/build")
        );
        let mut cargo = crate::cargo_command(&root);
        cargo
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("CARGO_BUILD_TARGET_DIR");
        assert_eq!(super::target_dir_of(cargo).unwrap(), root.join("target"));
        let dir = Path::new("/build");
        assert_eq!(
            super::release_binary(dir, None),
            Path::new("/build/release/hook")
        );
        assert_eq!(
            super::release_binary(dir, Some("aarch64-apple-darwin")),
            Path::new("/build/aarch64-apple-darwin/release/hook")
        );
    }

    use std::io::Read as _;
    use std::path::Path;

    use base64::Engine as _;
    use sha2::{Digest as _, Sha256};

    use super::docs::placeholder_urls;
    use super::pack::*;

    /// The smallest 64-bit little-endian ELF file with a `.dynstr` section holding `dynstr`:
    /// the header, the section names, `dynstr`, then three section headers (none, the names,
    /// `.dynstr`).
    fn fake_elf(machine: u16, dynstr: &[u8]) -> Vec<u8> {
        let names = b"\0.shstrtab\0.dynstr\0";
        let mut elf = b"\x7fELF\x02\x01".to_vec();
        elf.resize(64, 0);
        elf[0x12..0x14].copy_from_slice(&machine.to_le_bytes());
        elf.extend_from_slice(names);
        elf.extend_from_slice(dynstr);
        let table = elf.len() as u64;
        elf[0x28..0x30].copy_from_slice(&table.to_le_bytes());
        elf[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
        elf[0x3c..0x3e].copy_from_slice(&3u16.to_le_bytes());
        elf[0x3e..0x40].copy_from_slice(&1u16.to_le_bytes());
        let sections = [
            (0u32, 0u64, 0u64),
            (1, 64, names.len() as u64),
            (11, 64 + names.len() as u64, dynstr.len() as u64),
        ];
        for (name, offset, size) in sections {
            let mut header = vec![0u8; 64];
            header[..4].copy_from_slice(&name.to_le_bytes());
            header[0x18..0x20].copy_from_slice(&offset.to_le_bytes());
            header[0x20..0x28].copy_from_slice(&size.to_le_bytes());
            elf.extend_from_slice(&header);
        }
        elf
    }

    #[test]
    fn the_newest_glibc_version_is_read_from_the_symbol_names() {
        let strings = b"memcpy\0GLIBC_2.2.5\0GLIBC_2.34\0GLIBC_PRIVATE\0GLIBC_2.17\0GLIBC_2.3";
        assert_eq!(newest_glibc_in(strings), Some((2, 34)));
        assert_eq!(newest_glibc_in(b"static\0no versions"), None);
        // Only an ELF file's dynamic strings count.
        assert_eq!(newest_glibc(b"not ELF, GLIBC_2.34\0"), None);
        assert_eq!(newest_glibc(&fake_elf(62, strings)), Some((2, 34)));
        assert_eq!(newest_glibc(&fake_elf(62, b"\0static\0")), None);
    }

    #[test]
    fn every_platform_has_one_npm_package_and_a_wheel_tag() {
        let mut names: Vec<String> = PLATFORMS.iter().map(Platform::npm_package).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), PLATFORMS.len());
        assert!(platform("x86_64-pc-windows-msvc").is_err());
        let glibc = fake_elf(183, b"\0GLIBC_2.17\0GLIBC_2.28\0");
        let tag = wheel_tag(platform("aarch64-unknown-linux-gnu").unwrap(), &glibc).unwrap();
        assert_eq!(tag, "py3-none-manylinux_2_28_aarch64");
        let musl = wheel_tag(platform("x86_64-unknown-linux-musl").unwrap(), b"").unwrap();
        assert_eq!(musl, "py3-none-musllinux_1_2_x86_64");
        assert!(wheel_tag(platform("x86_64-unknown-linux-gnu").unwrap(), b"").is_err());
    }

    /// A package never carries a binary under another platform's name.
    #[test]
    fn a_binary_of_another_platform_is_refused() {
        let gnu = fake_elf(62, b"\0GLIBC_2.34\0");
        let musl = fake_elf(62, b"\0static\0");
        let arm = fake_elf(183, b"\0GLIBC_2.17\0");
        let mac = [0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0x00, 0x00, 0x01];
        let cases: [(&str, &[u8], bool); 8] = [
            ("x86_64-unknown-linux-gnu", &gnu, true),
            ("x86_64-unknown-linux-gnu", &musl, false),
            ("x86_64-unknown-linux-musl", &musl, true),
            ("x86_64-unknown-linux-musl", &gnu, false),
            ("aarch64-unknown-linux-gnu", &arm, true),
            ("aarch64-unknown-linux-gnu", &gnu, false),
            ("aarch64-apple-darwin", &mac, true),
            ("x86_64-apple-darwin", &mac, false),
        ];
        for (target, binary, fits) in cases {
            let checked = check_binary(platform(target).unwrap(), binary);
            assert_eq!(checked.is_ok(), fits, "{target}: {checked:?}");
        }
    }

    /// Every file of the three packages that is text: (package, path inside it, text).
    fn texts(written: &Written) -> Vec<(String, String, String)> {
        let mut found = Vec::new();
        for tgz in [&written.npm_main, &written.npm_platform] {
            let file = std::fs::File::open(tgz).unwrap();
            let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
            for entry in archive.entries().unwrap() {
                let mut entry = entry.unwrap();
                let path = entry.path().unwrap().display().to_string();
                let mut bytes = Vec::new();
                entry.read_to_end(&mut bytes).unwrap();
                if let Ok(text) = String::from_utf8(bytes) {
                    found.push((tgz.display().to_string(), path, text));
                }
            }
        }
        let mut archive =
            zip::ZipArchive::new(std::fs::File::open(&written.wheel).unwrap()).unwrap();
        for index in 0..archive.len() {
            let mut entry = archive.by_index(index).unwrap();
            let path = entry.name().unwrap().into_owned();
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            if let Ok(text) = String::from_utf8(bytes) {
                found.push((written.wheel.display().to_string(), path, text));
            }
        }
        found
    }

    /// A README naming a placeholder address stops the packaging, naming it.
    #[test]
    fn a_placeholder_address_in_the_readme_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let real = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        std::fs::create_dir_all(root.join("packaging/npm")).unwrap();
        for file in [
            "LICENSE-MIT",
            "LICENSE-APACHE",
            "packaging/npm/hook.js",
            "packaging/npm/install.js",
            "packaging/npm/platform.js",
        ] {
            std::fs::copy(real.join(file), root.join(file)).unwrap();
        }
        std::fs::write(
            root.join("packaging/README.md"),
            "# hook\n\nThe source: [here](https://github.com/example/hook-engine#readme).\n",
        )
        .unwrap();
        let binary = dir.path().join("hook");
        std::fs::write(&binary, fake_elf(62, b"\0GLIBC_2.17\0")).unwrap();
        let man = vec![("hook.1".to_owned(), b".TH hook 1\n".to_vec())];
        let meta = Meta {
            version: "1.2.3",
            root: &root,
            man: &man,
        };
        let platform = platform("x86_64-unknown-linux-gnu").unwrap();
        let out = dir.path().join("dist");
        let error = write_all(&meta, platform, &binary, &out, Compression::Stored).unwrap_err();
        let error = format!("{error:#}");
        assert!(
            error.contains("README.md: https://github.com/example/hook-engine#readme"),
            "{error}"
        );
        assert!(!out.join("hook-engine-1.2.3.tgz").exists());
    }

    /// A fake binary packaged at the release's compression: every package read back holds
    /// exactly its files; a wheel's RECORD names every other file with its digest and size.
    #[test]
    fn the_packages_of_a_binary_hold_exactly_their_files() {
        let out = tempfile::tempdir().unwrap();
        let binary = out.path().join("hook");
        std::fs::write(&binary, fake_elf(62, b"\0GLIBC_2.17\0GLIBC_2.34\0")).unwrap();
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let man = vec![
            ("hook.1".to_owned(), b".TH hook 1\n".to_vec()),
            ("hook-run.1".to_owned(), b".TH hook-run 1\n".to_vec()),
        ];
        let meta = Meta {
            version: "1.2.3",
            root,
            man: &man,
        };
        let platform = platform("x86_64-unknown-linux-gnu").unwrap();
        let dist = out.path().join("dist");
        let written = write_all(&meta, platform, &binary, &dist, Compression::Best).unwrap();
        assert_eq!(
            written.wheel.file_name().unwrap(),
            "hook_engine-1.2.3-py3-none-manylinux_2_34_x86_64.whl"
        );
        assert_eq!(
            written.npm_platform.file_name().unwrap(),
            "hook-engine-linux-x64-gnu-1.2.3.tgz"
        );
        let manifest = package_json(&written.npm_main).unwrap();
        assert_eq!(manifest["bin"]["hook"], "bin/hook");
        assert_eq!(manifest["scripts"]["postinstall"], "node install.js");
        assert_eq!(
            manifest["optionalDependencies"]["hook-engine-darwin-arm64"],
            "1.2.3"
        );
        // npm links the man pages into the prefix's share/man/man1.
        assert_eq!(
            manifest["man"],
            serde_json::json!(["man/hook.1", "man/hook-run.1"])
        );
        let main_files = list_tgz(&written.npm_main).unwrap();
        for file in [
            "man/hook.1",
            "man/hook-run.1",
            "README.md",
            "bin/hook",
            "install.js",
            "lib/platform.js",
        ] {
            assert!(main_files.contains_key(file), "{file}: {main_files:?}");
        }
        // The main package's `hook` is the launcher as shipped, executable; never the binary.
        assert_eq!(main_files["bin/hook"].0, 0o755);
        assert_ne!(
            main_files["bin/hook"].1,
            list_tgz(&written.npm_platform).unwrap()["bin/hook"].1
        );
        let platform_manifest = package_json(&written.npm_platform).unwrap();
        assert_eq!(platform_manifest["libc"], serde_json::json!(["glibc"]));
        let wheel_files = list_wheel(&written.wheel).unwrap();
        assert!(
            wheel_files.contains_key("hook_engine-1.2.3.data/data/share/man/man1/hook-run.1"),
            "{wheel_files:?}"
        );

        let mut archive =
            zip::ZipArchive::new(std::fs::File::open(&written.wheel).unwrap()).unwrap();
        let mut record = String::new();
        archive
            .by_name("hook_engine-1.2.3.dist-info/RECORD")
            .unwrap()
            .read_to_string(&mut record)
            .unwrap();
        let listing = list_wheel(&written.wheel).unwrap();
        assert_eq!(record.lines().count(), listing.len());
        for line in record.lines() {
            let fields: Vec<&str> = line.split(',').collect();
            if fields[0].ends_with("/RECORD") {
                assert_eq!(&fields[1..], ["", ""]);
                continue;
            }
            let mut bytes = Vec::new();
            archive
                .by_name(fields[0])
                .unwrap()
                .read_to_end(&mut bytes)
                .unwrap();
            let digest =
                base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(&bytes));
            assert_eq!(fields[1], format!("sha256={digest}"), "{line}");
            assert_eq!(fields[2], bytes.len().to_string(), "{line}");
        }

        // No file of any package names a placeholder address (the README is the real one).
        for (package, path, text) in texts(&written) {
            assert_eq!(
                placeholder_urls(&text),
                Vec::<String>::new(),
                "{package}: {path}"
            );
        }

        // The same inputs give the same bytes.
        let again = write_all(
            &meta,
            platform,
            &binary,
            &out.path().join("again"),
            Compression::Best,
        )
        .unwrap();
        for (a, b) in [
            (&written.npm_main, &again.npm_main),
            (&written.npm_platform, &again.npm_platform),
            (&written.wheel, &again.wheel),
        ] {
            assert_eq!(
                std::fs::read(a).unwrap(),
                std::fs::read(b).unwrap(),
                "{a:?}"
            );
        }
    }
}

//! The packages `cargo xtask dist` writes from one `hook` binary, and the check that each holds
//! exactly the files it needs. hook-cli's tests include this file (`#[path]`) to package the
//! binary they test, so what they install is what `dist` writes.
//!
//! - The npm package [`NPM_NAME`]: `bin/hook`, its `hook` command as shipped: the Node
//!   launcher (`packaging/npm/hook.js`), which its postinstall `install.js`
//!   (`packaging/npm/install.js`) replaces with the platform package's native binary once that
//!   binary answers `--version` with this version (else the launcher stays, and the
//!   postinstall says so in one line); `lib/platform.js` (`packaging/npm/platform.js`), how
//!   both find that binary; its `package.json` naming every platform package of [`PLATFORMS`]
//!   as an optional dependency at the same version, the postinstall (`scripts`) and the man
//!   pages (`man`: npm links them into the prefix's `share/man/man1`, so `man hook` works), the
//!   README (`packaging/README.md`, the whole user documentation: the package has no other
//!   home to send readers to), the man pages under `man/` and the licences.
//! - The platform package `hook-engine-<platform>-<arch>[-<libc>]` of the binary's target:
//!   `bin/hook` (the binary, mode 0755), a `package.json` whose `os`, `cpu` and `libc` let npm
//!   install it only where it runs, a README and the licences.
//! - The wheel `hook_engine-<version>-py3-none-<platform>.whl`: the binary as
//!   `hook_engine-<version>.data/scripts/hook` (pip installs it as `bin/hook`, no Python in
//!   between), the man pages as `hook_engine-<version>.data/data/share/man/man1/` (pip puts
//!   them under the environment's `share/man/man1`), `METADATA` (whose description is the
//!   README), `WHEEL`, the licences and `RECORD`. Its platform tag is honest: for glibc,
//!   `manylinux_<x>_<y>` of the newest `GLIBC_x.y` symbol version the binary needs.
//!
//! The man pages are the binary's own (`hook man --out DIR`,
//! [`man_pages`](super::docs::man_pages)), generated from its command line's definition. No
//! package names a placeholder address (`example.com`, `github.com/example/`:
//! [`placeholder_urls`]): [`write_all`] refuses one, since the project has no public home yet
//! and the packages carry their documentation instead. Both live in `docs.rs` beside this
//! file, which hook-cli's tests include too.
//!
//! The archives are reproducible: fixed times, owners and modes, entries in a fixed order.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::docs::placeholder_urls;

/// The npm package people install, and the prefix of every platform package's name.
pub(crate) const NPM_NAME: &str = "hook-engine";

/// The distribution name on PyPI (`hook_engine` in the wheel's file names).
pub(crate) const WHEEL_NAME: &str = "hook-engine";

/// The time every archive entry carries (npm's own fixed time for packed files, 1985-10-26),
/// so the same inputs give the same bytes.
const NPM_MTIME: u64 = 499_162_500;

/// How a wheel says which systems it runs on.
#[derive(Clone, Copy, Debug)]
pub(crate) enum WheelPlatform {
    /// `manylinux_<x>_<y>_<arch>`, from the newest glibc symbol version the binary needs.
    Glibc(&'static str),
    /// A tag that does not depend on the binary (musl, macOS).
    Fixed(&'static str),
}

/// A target the release builds, and how npm and pip name it.
#[derive(Debug)]
pub(crate) struct Platform {
    /// The Rust target triple.
    pub(crate) target: &'static str,
    /// `process.platform-process.arch[-libc]`: the npm package is `hook-engine-<this>`.
    pub(crate) npm: &'static str,
    /// npm's `os`, `cpu` and (Linux) `libc` of the platform package.
    os: &'static str,
    cpu: &'static str,
    libc: Option<&'static str>,
    /// What a person calls it.
    pub(crate) label: &'static str,
    wheel: WheelPlatform,
}

/// Every target the release builds (`.github/workflows/release.yml`). The Rust musl targets
/// are built against musl 1.2, and Rust's macOS targets start at 10.12 (x86_64) and 11.0.
pub(crate) const PLATFORMS: &[Platform] = &[
    Platform {
        target: "x86_64-unknown-linux-gnu",
        npm: "linux-x64-gnu",
        os: "linux",
        cpu: "x64",
        libc: Some("glibc"),
        label: "Linux x86_64 (glibc)",
        wheel: WheelPlatform::Glibc("x86_64"),
    },
    Platform {
        target: "x86_64-unknown-linux-musl",
        npm: "linux-x64-musl",
        os: "linux",
        cpu: "x64",
        libc: Some("musl"),
        label: "Linux x86_64 (musl, static)",
        wheel: WheelPlatform::Fixed("musllinux_1_2_x86_64"),
    },
    Platform {
        target: "aarch64-unknown-linux-gnu",
        npm: "linux-arm64-gnu",
        os: "linux",
        cpu: "arm64",
        libc: Some("glibc"),
        label: "Linux aarch64 (glibc)",
        wheel: WheelPlatform::Glibc("aarch64"),
    },
    Platform {
        target: "aarch64-unknown-linux-musl",
        npm: "linux-arm64-musl",
        os: "linux",
        cpu: "arm64",
        libc: Some("musl"),
        label: "Linux aarch64 (musl, static)",
        wheel: WheelPlatform::Fixed("musllinux_1_2_aarch64"),
    },
    Platform {
        target: "x86_64-apple-darwin",
        npm: "darwin-x64",
        os: "darwin",
        cpu: "x64",
        libc: None,
        label: "macOS x86_64",
        wheel: WheelPlatform::Fixed("macosx_10_12_x86_64"),
    },
    Platform {
        target: "aarch64-apple-darwin",
        npm: "darwin-arm64",
        os: "darwin",
        cpu: "arm64",
        libc: None,
        label: "macOS arm64",
        wheel: WheelPlatform::Fixed("macosx_11_0_arm64"),
    },
];

/// The platform of the Rust target `target`.
pub(crate) fn platform(target: &str) -> Result<&'static Platform> {
    PLATFORMS
        .iter()
        .find(|platform| platform.target == target)
        .with_context(|| {
            let known: Vec<&str> = PLATFORMS.iter().map(|p| p.target).collect();
            format!(
                "no package is made for the target {target}: the release builds {}",
                known.join(", ")
            )
        })
}

impl Platform {
    /// The platform package's npm name.
    pub(crate) fn npm_package(&self) -> String {
        format!("{NPM_NAME}-{}", self.npm)
    }

    /// The platform package's `package.json` at `version`: its `os`, `cpu` and `libc` let npm
    /// install it only where it runs.
    pub(crate) fn npm_manifest(&self, version: &str) -> serde_json::Value {
        let mut manifest = serde_json::json!({
            "name": self.npm_package(),
            "version": version,
            "description": format!("The hook binary for {}: install {NPM_NAME}, which installs it as `hook`", self.label),
            "license": "MIT OR Apache-2.0",
            "os": [self.os],
            "cpu": [self.cpu],
        });
        if let Some(libc) = self.libc {
            manifest["libc"] = serde_json::json!([libc]);
        }
        manifest
    }
}

/// What the packages say about themselves besides their files.
pub(crate) struct Meta<'a> {
    /// The workspace's (and so the crates') version.
    pub(crate) version: &'a str,
    /// The workspace root: `packaging/` and the licences.
    pub(crate) root: &'a Path,
    /// The binary's man pages ([`man_pages`](super::docs::man_pages)): (file name, roff),
    /// `hook.1` among them.
    pub(crate) man: &'a [(String, Vec<u8>)],
}

/// How hard the archives are compressed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Compression {
    /// The smallest download (releases).
    Best,
    /// No compression: quick, for a large debug binary that is only tried (hook-cli's tests).
    Stored,
}

/// The files [`write_all`] wrote.
#[derive(Debug)]
pub(crate) struct Written {
    /// The launcher's npm package.
    pub(crate) npm_main: PathBuf,
    /// The platform's npm package, holding the binary.
    pub(crate) npm_platform: PathBuf,
    /// The wheel.
    pub(crate) wheel: PathBuf,
}

/// One file of a package: its path inside it, mode and bytes.
struct Entry {
    path: String,
    mode: u32,
    bytes: Vec<u8>,
}

impl Entry {
    fn new(path: impl Into<String>, mode: u32, bytes: impl Into<Vec<u8>>) -> Entry {
        Entry {
            path: path.into(),
            mode,
            bytes: bytes.into(),
        }
    }
}

/// Writes the two npm packages and the wheel of `binary` (built for `platform`) into `out`,
/// then reads each back and checks it holds exactly the files it needs.
pub(crate) fn write_all(
    meta: &Meta,
    platform: &Platform,
    binary: &Path,
    out: &Path,
    compression: Compression,
) -> Result<Written> {
    let bytes = std::fs::read(binary).with_context(|| {
        format!(
            "cannot read the hook binary {}: build it (cargo build --release -p hook-cli) or name another with --binary",
            binary.display()
        )
    })?;
    check_binary(platform, &bytes).with_context(|| {
        format!(
            "{} is not a binary for {} ({}): build it with --target {}",
            binary.display(),
            platform.target,
            platform.label,
            platform.target
        )
    })?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let licences = licences(meta.root)?;

    let main = main_package(meta, &licences)?;
    let placeholders: Vec<String> = main
        .iter()
        .filter_map(|entry| {
            let text = std::str::from_utf8(&entry.bytes).ok()?;
            let urls = placeholder_urls(text);
            (!urls.is_empty()).then(|| format!("{}: {}", entry.path, urls.join(", ")))
        })
        .collect();
    if !placeholders.is_empty() {
        bail!(
            "the npm package would name placeholder addresses (the project has no public home: name none):\n  {}",
            placeholders.join("\n  ")
        );
    }
    let npm_main = out.join(format!("{NPM_NAME}-{}.tgz", meta.version));
    write_tgz(&npm_main, &main, compression)
        .with_context(|| format!("cannot write {}", npm_main.display()))?;

    let platform_files = platform_package(meta, platform, &bytes, &licences)?;
    let npm_platform = out.join(format!("{}-{}.tgz", platform.npm_package(), meta.version));
    write_tgz(&npm_platform, &platform_files, compression)
        .with_context(|| format!("cannot write {}", npm_platform.display()))?;

    let tag = wheel_tag(platform, &bytes)?;
    let wheel_files = wheel(meta, &tag, &bytes, &licences)?;
    let wheel = out.join(format!("{}-{tag}.whl", wheel_stem(meta.version)));
    write_wheel(&wheel, &wheel_files, compression)
        .with_context(|| format!("cannot write {}", wheel.display()))?;

    let written = Written {
        npm_main,
        npm_platform,
        wheel,
    };
    check(meta, platform, &written, &bytes)?;
    Ok(written)
}

/// `hook_engine-<version>`: how a wheel's file name and folders begin.
fn wheel_stem(version: &str) -> String {
    format!("{}-{version}", WHEEL_NAME.replace('-', "_"))
}

/// The licence files every package carries: (name, text).
fn licences(root: &Path) -> Result<Vec<(&'static str, Vec<u8>)>> {
    ["LICENSE-MIT", "LICENSE-APACHE"]
        .into_iter()
        .map(|name| {
            let path = root.join(name);
            std::fs::read(&path)
                .map(|bytes| (name, bytes))
                .with_context(|| format!("cannot read {}", path.display()))
        })
        .collect()
}

fn read_packaging(root: &Path, name: &str) -> Result<Vec<u8>> {
    let path = root.join("packaging").join(name);
    std::fs::read(&path).with_context(|| {
        format!(
            "cannot read {}: the packages are made from packaging/ in the repository",
            path.display()
        )
    })
}

fn json_file(value: &serde_json::Value) -> Result<Vec<u8>> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text.into_bytes())
}

/// The files of the main package that are not the README, the licences or the man pages:
/// (path in the package, mode, file under `packaging/`). `bin/hook` is the `hook` command.
const NPM_SCRIPTS: [(&str, u32, &str); 3] = [
    ("bin/hook", 0o755, "npm/hook.js"),
    ("install.js", 0o644, "npm/install.js"),
    ("lib/platform.js", 0o644, "npm/platform.js"),
];

/// The main package: `package.json`, `README.md`, the licences, the man pages, then
/// [`NPM_SCRIPTS`] (the launcher as `bin/hook`, the postinstall, the platform search).
fn main_package(meta: &Meta, licences: &[(&str, Vec<u8>)]) -> Result<Vec<Entry>> {
    let optional: serde_json::Map<String, serde_json::Value> = PLATFORMS
        .iter()
        .map(|p| (p.npm_package(), meta.version.into()))
        .collect();
    let man: Vec<String> = meta
        .man
        .iter()
        .map(|(name, _)| format!("man/{name}"))
        .collect();
    let manifest = serde_json::json!({
        "name": NPM_NAME,
        "version": meta.version,
        "description": "hook: a hooks engine for AI coding agents (Claude Code, Codex CLI): run, list, trust and relay their lifecycle hooks",
        "license": "MIT OR Apache-2.0",
        "keywords": ["hooks", "claude-code", "codex", "agent", "cli"],
        // The launcher, which the postinstall replaces with the native binary.
        "bin": {"hook": "bin/hook"},
        "scripts": {"postinstall": "node install.js"},
        "man": man,
        "engines": {"node": ">=16"},
        "optionalDependencies": optional,
    });
    let mut entries = vec![
        Entry::new("package.json", 0o644, json_file(&manifest)?),
        Entry::new("README.md", 0o644, read_packaging(meta.root, "README.md")?),
    ];
    for (name, text) in licences {
        entries.push(Entry::new(*name, 0o644, text.clone()));
    }
    for (name, text) in meta.man {
        entries.push(Entry::new(format!("man/{name}"), 0o644, text.clone()));
    }
    for (path, mode, source) in NPM_SCRIPTS {
        entries.push(Entry::new(path, mode, read_packaging(meta.root, source)?));
    }
    Ok(entries)
}

/// The platform package: `package.json`, `README.md`, the licences, `bin/hook`.
fn platform_package(
    meta: &Meta,
    platform: &Platform,
    binary: &[u8],
    licences: &[(&str, Vec<u8>)],
) -> Result<Vec<Entry>> {
    let manifest = platform.npm_manifest(meta.version);
    let readme = format!(
        "# {}\n\nThe `hook` binary for {}, built from the `hook-cli` crate {}.\n\n\
         Install [`{NPM_NAME}`](https://www.npmjs.com/package/{NPM_NAME}) instead: npm picks \
         this package for this platform as one of its optional dependencies, and the \
         postinstall of {NPM_NAME} puts `bin/hook` from here in place as its `hook` command \
         (with install scripts off, a Node launcher runs it). Its README is the documentation, \
         and it installs the man pages (`man hook`).\n",
        platform.npm_package(),
        platform.label,
        meta.version,
    );
    let mut entries = vec![
        Entry::new("package.json", 0o644, json_file(&manifest)?),
        Entry::new("README.md", 0o644, readme),
    ];
    for (name, text) in licences {
        entries.push(Entry::new(*name, 0o644, text.clone()));
    }
    entries.push(Entry::new("bin/hook", 0o755, binary));
    Ok(entries)
}

/// Fails unless `binary` is an executable of `platform`'s kind: a 64-bit little-endian ELF
/// file for its machine on Linux, needing glibc (a `GLIBC_` symbol version) for a `-gnu`
/// target and not for a `-musl` one; a 64-bit Mach-O file for its CPU on macOS. A package
/// never carries a binary under another platform's name.
pub(crate) fn check_binary(platform: &Platform, binary: &[u8]) -> Result<()> {
    let arm = platform.cpu == "arm64";
    if platform.os == "darwin" {
        // MH_MAGIC_64, then the CPU type: CPU_TYPE_X86_64 or CPU_TYPE_ARM64.
        let cpu: u32 = if arm { 0x0100_000c } else { 0x0100_0007 };
        let mut header = 0xfeed_facf_u32.to_le_bytes().to_vec();
        header.extend_from_slice(&cpu.to_le_bytes());
        if !binary.starts_with(&header) {
            bail!("not a 64-bit Mach-O executable for {}", platform.cpu);
        }
        return Ok(());
    }
    // EM_X86_64 or EM_AARCH64, at e_machine.
    let machine: u16 = if arm { 183 } else { 62 };
    if !binary.starts_with(b"\x7fELF\x02\x01")
        || binary.get(0x12..0x14) != Some(&machine.to_le_bytes()[..])
    {
        bail!("not a 64-bit ELF executable for {}", platform.cpu);
    }
    match (platform.libc, newest_glibc(binary)) {
        (Some("glibc"), None) => {
            bail!("it names no GLIBC_ symbol version (check with `objdump -T`)")
        }
        (Some("musl"), Some((major, minor))) => {
            bail!("it needs glibc {major}.{minor}, a musl build needs none")
        }
        _ => Ok(()),
    }
}

/// The newest `GLIBC_x.y` symbol version a 64-bit little-endian ELF `binary` needs: the
/// newest named in its dynamic string table (`.dynstr`, where the loader finds the versions it
/// checks, as `objdump -T` lists them); `None` for a binary without one (static, not ELF).
pub(crate) fn newest_glibc(binary: &[u8]) -> Option<(u32, u32)> {
    newest_glibc_in(dynstr(binary)?)
}

/// The `.dynstr` section of a 64-bit little-endian ELF file.
fn dynstr(elf: &[u8]) -> Option<&[u8]> {
    let u16_at = |at: usize| Some(u16::from_le_bytes(elf.get(at..at + 2)?.try_into().ok()?));
    let u32_at = |at: usize| Some(u32::from_le_bytes(elf.get(at..at + 4)?.try_into().ok()?));
    let u64_at = |at: usize| {
        let value = u64::from_le_bytes(elf.get(at..at + 8)?.try_into().ok()?);
        usize::try_from(value).ok()
    };
    // The magic, ELFCLASS64, ELFDATA2LSB.
    if elf.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let (table, entry) = (u64_at(0x28)?, usize::from(u16_at(0x3a)?));
    let (count, names) = (usize::from(u16_at(0x3c)?), usize::from(u16_at(0x3e)?));
    let section = |index: usize| -> Option<(u32, &[u8])> {
        let header = table.checked_add(index.checked_mul(entry)?)?;
        let (offset, size) = (u64_at(header + 0x18)?, u64_at(header + 0x20)?);
        Some((u32_at(header)?, elf.get(offset..offset.checked_add(size)?)?))
    };
    let (_, names) = section(names)?;
    (0..count).find_map(|index| {
        let (name, bytes) = section(index)?;
        let name = names.get(usize::try_from(name).ok()?..)?;
        name.starts_with(b".dynstr\0").then_some(bytes)
    })
}

/// The newest `GLIBC_x.y` among the NUL-separated `strings`.
pub(crate) fn newest_glibc_in(strings: &[u8]) -> Option<(u32, u32)> {
    strings
        .split(|byte| *byte == 0)
        .filter_map(|name| std::str::from_utf8(name.strip_prefix(b"GLIBC_")?).ok())
        .filter_map(|version| {
            let mut parts = version.split('.').map(|part| part.parse::<u32>().ok());
            Some((parts.next()??, parts.next()??))
        })
        .max()
}

/// The wheel's compressed tag (`py3-none-<platform>`).
pub(crate) fn wheel_tag(platform: &Platform, binary: &[u8]) -> Result<String> {
    let platform_tag = match platform.wheel {
        WheelPlatform::Fixed(tag) => tag.to_owned(),
        WheelPlatform::Glibc(arch) => {
            let Some((major, minor)) = newest_glibc(binary) else {
                bail!(
                    "the binary for {} names no GLIBC_ symbol version: is it a glibc build? (check with `objdump -T`)",
                    platform.target
                );
            };
            format!("manylinux_{major}_{minor}_{arch}")
        }
    };
    Ok(format!("py3-none-{platform_tag}"))
}

/// The wheel's files, `RECORD` last: the binary as a script, `METADATA`, `WHEEL`, licences.
fn wheel(
    meta: &Meta,
    tag: &str,
    binary: &[u8],
    licences: &[(&str, Vec<u8>)],
) -> Result<Vec<Entry>> {
    let stem = wheel_stem(meta.version);
    let info = format!("{stem}.dist-info");
    let readme = String::from_utf8(read_packaging(meta.root, "README.md")?)
        .context("packaging/README.md is not UTF-8")?;
    let metadata = format!(
        "Metadata-Version: 2.1\nName: {WHEEL_NAME}\nVersion: {}\n\
         Summary: hook: a hooks engine for AI coding agents (Claude Code, Codex CLI)\n\
         License: MIT OR Apache-2.0\n\
         Keywords: hooks,claude-code,codex,agent,cli\n\
         Description-Content-Type: text/markdown\n\n{readme}",
        meta.version
    );
    let wheel = format!(
        "Wheel-Version: 1.0\nGenerator: cargo xtask dist\nRoot-Is-Purelib: false\nTag: {tag}\n"
    );
    let mut entries = vec![Entry::new(
        format!("{stem}.data/scripts/hook"),
        0o755,
        binary,
    )];
    for (name, text) in meta.man {
        entries.push(Entry::new(
            format!("{stem}.data/data/share/man/man1/{name}"),
            0o644,
            text.clone(),
        ));
    }
    entries.push(Entry::new(format!("{info}/METADATA"), 0o644, metadata));
    entries.push(Entry::new(format!("{info}/WHEEL"), 0o644, wheel));
    for (name, text) in licences {
        entries.push(Entry::new(format!("{info}/{name}"), 0o644, text.clone()));
    }
    let mut record = String::new();
    for entry in &entries {
        let digest =
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(&entry.bytes));
        record.push_str(&format!(
            "{},sha256={digest},{}\n",
            entry.path,
            entry.bytes.len()
        ));
    }
    record.push_str(&format!("{info}/RECORD,,\n"));
    entries.push(Entry::new(format!("{info}/RECORD"), 0o644, record));
    Ok(entries)
}

/// An npm package: a gzipped tar whose entries sit under `package/`.
fn write_tgz(path: &Path, entries: &[Entry], compression: Compression) -> Result<()> {
    let level = match compression {
        Compression::Best => flate2::Compression::best(),
        Compression::Stored => flate2::Compression::none(),
    };
    let gzip = flate2::write::GzEncoder::new(std::fs::File::create(path)?, level);
    let mut tar = tar::Builder::new(gzip);
    for entry in entries {
        let mut header = tar::Header::new_ustar();
        header.set_path(format!("package/{}", entry.path))?;
        header.set_size(entry.bytes.len() as u64);
        header.set_mode(entry.mode);
        header.set_mtime(NPM_MTIME);
        header.set_entry_type(tar::EntryType::Regular);
        header.set_cksum();
        tar.append(&header, entry.bytes.as_slice())?;
    }
    tar.into_inner()?.finish()?.flush()?;
    Ok(())
}

/// A wheel: a zip archive, `RECORD` last.
fn write_wheel(path: &Path, entries: &[Entry], compression: Compression) -> Result<()> {
    let method = match compression {
        Compression::Best => zip::CompressionMethod::Deflated,
        Compression::Stored => zip::CompressionMethod::Stored,
    };
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path)?);
    for entry in entries {
        let mut options = zip::write::SimpleFileOptions::default()
            .compression_method(method)
            .unix_permissions(entry.mode)
            .last_modified_time(zip::DateTime::default());
        if let Compression::Best = compression {
            options = options.compression_level(Some(9));
        }
        zip.start_file(entry.path.as_str(), options)?;
        zip.write_all(&entry.bytes)?;
    }
    zip.finish()?.flush()?;
    Ok(())
}

/// A file as read back from an archive: its mode and SHA-256.
type Listing = BTreeMap<String, (u32, [u8; 32])>;

fn digest(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The files of an npm package, relative to `package/`.
pub(crate) fn list_tgz(path: &Path) -> Result<Listing> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut listing = Listing::new();
    for entry in archive
        .entries()
        .with_context(|| format!("{} is not a gzipped tar", path.display()))?
    {
        let mut entry = entry?;
        let name = entry.path()?.to_string_lossy().into_owned();
        let Some(name) = name.strip_prefix("package/").map(str::to_owned) else {
            bail!("{}: {name} is outside package/", path.display());
        };
        let mode = entry.header().mode()?;
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes)?;
        listing.insert(name, (mode & 0o777, digest(&bytes)));
    }
    Ok(listing)
}

/// The files of a wheel.
pub(crate) fn list_wheel(path: &Path) -> Result<Listing> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut archive = zip::ZipArchive::new(file)
        .with_context(|| format!("{} is not a zip archive", path.display()))?;
    let mut listing = Listing::new();
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index)?;
        let name = entry.name()?.into_owned();
        let mode = entry.unix_mode().unwrap_or(0) & 0o777;
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes)?;
        listing.insert(name, (mode, digest(&bytes)));
    }
    Ok(listing)
}

/// Reads each package back: exactly the files it needs (no more, none missing), each with its
/// mode; the binary and the main package's scripts ([`NPM_SCRIPTS`]: the launcher as
/// `bin/hook`, never the binary) identical to what they are made from; the manifests at the
/// crates' version.
fn check(meta: &Meta, platform: &Platform, written: &Written, binary: &[u8]) -> Result<()> {
    let binary = digest(binary);
    let mut problems = Vec::new();
    // Each package's files: (path, mode, digest of what it must hold when that is known).
    let file = |name: String| (name, 0o644, None);
    let licences = ["LICENSE-MIT", "LICENSE-APACHE"];
    let mut main: Vec<(String, u32, Option<[u8; 32]>)> = ["package.json", "README.md"]
        .iter()
        .chain(&licences)
        .map(|name| file((*name).to_owned()))
        .collect();
    let mut platform_files = main.clone();
    for (path, mode, source) in NPM_SCRIPTS {
        let made_from = digest(&read_packaging(meta.root, source)?);
        main.push((path.to_owned(), mode, Some(made_from)));
    }
    main.extend(meta.man.iter().map(|(name, _)| file(format!("man/{name}"))));
    platform_files.push(("bin/hook".into(), 0o755, Some(binary)));
    let stem = wheel_stem(meta.version);
    let info = format!("{stem}.dist-info");
    let mut wheel: Vec<_> = ["METADATA", "WHEEL", "RECORD"]
        .iter()
        .chain(&licences)
        .map(|name| file(format!("{info}/{name}")))
        .collect();
    wheel.push((format!("{stem}.data/scripts/hook"), 0o755, Some(binary)));
    wheel.extend(
        meta.man
            .iter()
            .map(|(name, _)| file(format!("{stem}.data/data/share/man/man1/{name}"))),
    );

    let packages = [
        (&written.npm_main, list_tgz(&written.npm_main)?, main),
        (
            &written.npm_platform,
            list_tgz(&written.npm_platform)?,
            platform_files,
        ),
        (&written.wheel, list_wheel(&written.wheel)?, wheel),
    ];
    for (path, listing, needed) in &packages {
        let shown = path.display();
        for (name, want, holds) in needed {
            let Some((mode, sha)) = listing.get(name) else {
                problems.push(format!("{shown}: {name} is missing"));
                continue;
            };
            if mode != want {
                problems.push(format!("{shown}: {name} has mode {mode:o}, not {want:o}"));
            }
            if holds.is_some_and(|holds| holds != *sha) {
                problems.push(format!("{shown}: {name} is not the file it is made from"));
            }
        }
        for name in listing.keys() {
            if !needed.iter().any(|(needed, ..)| needed == name) {
                problems.push(format!("{shown}: {name} is not a file the package needs"));
            }
        }
    }
    for tgz in [&written.npm_main, &written.npm_platform] {
        let manifest = package_json(tgz)?;
        if manifest["version"] != meta.version {
            problems.push(format!(
                "{}: package.json's version is {}, not the crates' {}",
                tgz.display(),
                manifest["version"],
                meta.version
            ));
        }
    }
    let platform_manifest = package_json(&written.npm_platform)?;
    if platform_manifest["name"] != platform.npm_package().as_str() {
        problems.push(format!(
            "{}: named {}, not {}",
            written.npm_platform.display(),
            platform_manifest["name"],
            platform.npm_package()
        ));
    }
    if problems.is_empty() {
        return Ok(());
    }
    bail!(
        "the packages are not what they should hold:\n  {}\n(the files of each package are written in xtask/src/dist/pack.rs)",
        problems.join("\n  ")
    )
}

/// The `package.json` of an npm package.
pub(crate) fn package_json(tgz: &Path) -> Result<serde_json::Value> {
    let file =
        std::fs::File::open(tgz).with_context(|| format!("cannot read {}", tgz.display()))?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    for entry in archive.entries()? {
        let mut entry = entry?;
        if entry.path()?.as_os_str() == "package/package.json" {
            let mut text = String::new();
            entry.read_to_string(&mut text)?;
            return serde_json::from_str(&text)
                .with_context(|| format!("{}: package.json is not JSON", tgz.display()));
        }
    }
    bail!("{} holds no package/package.json", tgz.display())
}

//! `cargo xtask conformance guests [AGENT|CASE-PREFIX]`: the relay against the real Qwen Code,
//! Gemini CLI and Copilot CLI (the newest releases on the npm registry, installed with npm
//! under `target/conformance/npm/qwen-<v>-gemini-<v>-copilot-<v>`). One guard written for
//! Claude Code in the relay's user file must guard each of them through the entry `hook relay
//! install --agent qwen|gemini|copilot` writes (`hook relay --agent NAME ... || exit 2` in the
//! agent's own terms): a denied `rm -rf` must not run and its reason must reach the model, an
//! allowed command must run, and an entry whose `hook` is missing must still block; and Copilot
//! CLI must be guarded by Claude Code's project install in a folder it trusts. Each case runs the agent headless in a fresh home and
//! project against the fake model server ([`super::server`]: Anthropic Messages for Qwen Code
//! and Copilot CLI, Google GenAI for Gemini CLI). Prints a line per agent and one per
//! disagreement, writes the `guests` section of `CONFORMANCE.md` (when every case ran), and
//! fails on any disagreement.
//!
//! Where each part is: `entries.rs` the agents, the files a case writes (the guard, the
//! agent's own settings) and the `hook` commands that install the entry, `launch.rs` one
//! headless run (`env -i`, a process group killed after its deadline), `cases.rs` the cases
//! and their checks, `report.rs` the section.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

mod cases;
mod drift;
mod entries;
mod launch;
pub(super) mod report;

use super::agents::{install_packages, newest_release};
use cases::{Setting, cases, run_all};
use entries::Guest;
use launch::unpack_copilot;

/// The release of each agent a run is measured against.
struct GuestVersions {
    qwen: String,
    gemini: String,
    copilot: String,
}

impl GuestVersions {
    fn newest() -> Result<GuestVersions> {
        Ok(GuestVersions {
            qwen: newest_release(Guest::Qwen.package())?,
            gemini: newest_release(Guest::Gemini.package())?,
            copilot: newest_release(Guest::Copilot.package())?,
        })
    }

    fn of(&self, guest: Guest) -> &str {
        match guest {
            Guest::Qwen => &self.qwen,
            Guest::Gemini => &self.gemini,
            Guest::Copilot => &self.copilot,
        }
    }

    /// The npm prefix these releases are installed under (one per triple, kept between runs).
    fn npm_dir(&self, work: &Path) -> PathBuf {
        work.join("npm").join(format!(
            "qwen-{}-gemini-{}-copilot-{}",
            self.qwen, self.gemini, self.copilot
        ))
    }
}

/// Installs `versions` under `work` (once per triple); the npm prefix.
fn install_guests(versions: &GuestVersions, work: &Path) -> Result<PathBuf> {
    let npm = versions.npm_dir(work);
    let packages: Vec<_> = Guest::ALL
        .iter()
        .map(|guest| {
            let version = versions.of(*guest);
            (
                format!("{}@{version}", guest.package()),
                guest.package(),
                version,
            )
        })
        .collect();
    install_packages(&npm, &packages)?;
    Ok(npm)
}

/// `cargo xtask conformance guests-drift`: the newest releases' events against the relay's
/// translation tables ([`mod@drift`]).
pub(super) fn drift(root: &Path) -> Result<()> {
    let work = root.join("target/conformance");
    let versions = GuestVersions::newest()?;
    let npm = install_guests(&versions, &work)?;
    let cache = work.join("copilot-cache");
    unpack_copilot(
        &npm.join("node_modules/.bin"),
        &cache,
        &work.join("guests-runs/copilot-unpack"),
    )?;
    let copilot_pkg = cache
        .join("copilot/pkg")
        .join(format!("{}-{}", std::env::consts::OS, copilot_arch()))
        .join(&versions.copilot);
    let all: Vec<(Guest, String)> = Guest::ALL
        .iter()
        .map(|guest| (*guest, versions.of(*guest).to_owned()))
        .collect();
    drift::check(root, &npm, &copilot_pkg, &all)
}

/// Copilot CLI's name of this machine's architecture in its package folders.
fn copilot_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    }
}

/// Runs the cases of every agent (or of those `filter` names: an agent, or a prefix of case
/// names), prints the results, and writes the section of `CONFORMANCE.md` when every case ran.
pub(super) fn run(root: &Path, filter: Option<&str>) -> Result<()> {
    let work = root.join("target/conformance");
    let versions = GuestVersions::newest()?;
    println!(
        "Qwen Code {}, Gemini CLI {} and Copilot CLI {} (the newest releases)",
        versions.qwen, versions.gemini, versions.copilot
    );
    let npm = install_guests(&versions, &work)?;
    let hook = super::build_hook(root)?;
    let bin = npm.join("node_modules/.bin");
    let runs = work.join("guests-runs");
    let cache = work.join("copilot-cache");
    let jobs: Vec<(Guest, cases::Case)> = Guest::ALL
        .iter()
        .flat_map(|guest| cases(*guest).into_iter().map(move |case| (*guest, case)))
        .filter(|(guest, case)| {
            filter.is_none_or(|f| f == guest.name() || case.name.starts_with(f))
        })
        .collect();
    if jobs.is_empty() {
        bail!("no case matches `{}`", filter.unwrap_or_default());
    }
    if jobs.iter().any(|(guest, _)| *guest == Guest::Copilot) {
        let unpacked = unpack_copilot(&bin, &cache, &runs.join("copilot-unpack"))?;
        println!("Copilot CLI unpacked in {}: {unpacked}", cache.display());
    }
    let rows = run_all(
        &Setting {
            bin: &bin,
            hook: &hook,
            work: &runs,
            cache: &cache,
        },
        &jobs,
    );
    for guest in Guest::ALL {
        let rows: Vec<_> = rows.iter().filter(|r| r.guest == guest).collect();
        if rows.is_empty() {
            continue;
        }
        let agreed = rows.iter().filter(|r| r.agree).count();
        println!(
            "{}: {agreed}/{} cases agree, {} disagreements",
            report::title(guest, &versions),
            rows.len(),
            rows.len() - agreed
        );
        for row in rows.iter().filter(|r| !r.agree) {
            println!(
                "  DIFFER {}: expected {} | saw {} ({}; {})",
                row.case.name,
                row.expected,
                row.seen,
                row.status,
                row.dir.display()
            );
        }
    }
    if report::whole(&rows) {
        let path = root.join("CONFORMANCE.md");
        let text = fs::read_to_string(&path).unwrap_or_default();
        fs::write(
            &path,
            report::splice(&text, &report::section(&rows, &versions)),
        )?;
        println!("wrote the guests section of CONFORMANCE.md");
    }
    let disagreements = rows.iter().filter(|r| !r.agree).count();
    if disagreements > 0 {
        bail!("{disagreements} guests cases disagree");
    }
    Ok(())
}

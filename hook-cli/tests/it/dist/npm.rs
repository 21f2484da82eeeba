//! `npm install -g hook-engine` as a user runs it, install scripts on: the postinstall puts the
//! platform package's native binary over `bin/hook`, so `hook` on `PATH` is the binary itself
//! and a project's entry (`hook` through `PATH`) starts no Node. An upgrade leaves the new
//! version's binary and no stale file; an uninstall no file of either package. A platform
//! binary that fails the postinstall's `--version` check keeps the launcher, said in one line,
//! and the install still succeeds; without the platform package (npm could not fetch it) the
//! postinstall and the launcher say what is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

use hook_test_support::fs::write;

use super::registry::{Npm, Registry};
use super::{
    answers_as_the_binary, binary_of_version, carries_its_documentation, command_v_hook, is_native,
    listing, next_version, packages, packages_of, project_entry_denies, project_install,
    relay_install_through, run, the_entry_runs,
};
use crate::cli::text;

/// The npm packages of this test's binary installed with scripts on into `dir/prefix`, from a
/// registry on the loopback: `hook` on the prefix's `bin/`, the native binary (`None`, said,
/// without npm).
pub(super) fn npm_installed(dir: &Path) -> Option<PathBuf> {
    let release = packages(dir, env!("CARGO_PKG_VERSION"));
    let registry = Registry::serve(&[&release]);
    let npm = Npm::new(dir, &registry)?;
    npm.ok(&["install", "hook-engine"]);
    assert!(is_native(&npm.hook()));
    Some(npm.hook())
}

/// Every file (not folder) under `dir`, links included, relative to it.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.symlink_metadata().unwrap().is_dir() {
                pending.push(path);
            } else {
                found.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

/// One registry with two releases, this one (`latest`) and the next (this binary with the
/// next version in it), installed once with scripts on; then, in order, the checks of the
/// native `hook`, the upgrade, the uninstall (each install unpacks the 70 MB debug binary).
#[test]
fn with_install_scripts_on_hook_is_the_native_binary_through_upgrade_and_uninstall() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let this = packages(dir, env!("CARGO_PKG_VERSION"));
    let next = next_version();
    let next_release = packages_of(dir, &next, &binary_of_version(dir, &next));
    let registry = Registry::serve(&[&this, &next_release]);
    let Some(npm) = Npm::new(dir, &registry) else {
        return;
    };
    npm.ok(&["install", "hook-engine"]);

    // `hook` through PATH is the binary itself, npm's link to the package's `bin/hook`, and
    // the postinstall left nothing beside it.
    let hook = npm.hook();
    let path = npm.agent_path();
    assert_eq!(command_v_hook(&path), hook);
    let target = hook.canonicalize().unwrap();
    assert_eq!(target, npm.package().join("bin/hook"));
    assert!(is_native(&hook), "{target:?} is not an ELF executable");
    assert_eq!(
        std::fs::read(&target).unwrap(),
        std::fs::read(env!("CARGO_BIN_EXE_hook")).unwrap()
    );
    assert_eq!(listing(&npm.package().join("bin")), ["hook"]);
    answers_as_the_binary(&hook, dir);
    carries_its_documentation(
        &npm.package().join("README.md"),
        &npm.prefix.join("share/man"),
    );

    // A project's entry, bare `hook` through PATH, runs the binary: no note from install.
    let said = project_install(&hook, &path, dir);
    assert!(!said.contains("agent's PATH"), "{said}");
    project_entry_denies(&hook, &path, dir);

    // The user's entries name the path this `hook` runs as: the package's `bin/hook`.
    let home = dir.join("user");
    std::fs::create_dir_all(&home).unwrap();
    let program = relay_install_through(&hook, &home);
    assert_eq!(program, target);
    the_entry_runs(&program, &home);

    // The upgrade: the next version's binary in the same place, native, and nothing else left
    // (no temporary file, no folder of the version before).
    npm.ok(&["install", &format!("hook-engine@{next}")]);
    let out = run(&hook, &["--version"], "", None);
    assert_eq!(text(&out.stdout), format!("hook {next}\n"));
    assert!(is_native(&hook));
    let prefix = files_under(&npm.prefix);
    let platform = "lib/node_modules/hook-engine/node_modules/hook-engine-linux-x64-gnu";
    let package = std::fs::read_to_string(npm.prefix.join(platform).join("package.json")).unwrap();
    assert!(
        package.contains(&format!("\"version\": \"{next}\"")),
        "{package}"
    );
    assert_eq!(listing(&npm.prefix.join("bin")), ["hook"]);
    assert_eq!(
        listing(&npm.prefix.join("lib/node_modules")),
        ["hook-engine"]
    );
    assert_eq!(listing(&npm.package().join("bin")), ["hook"]);
    assert_eq!(
        listing(&npm.package().join("node_modules")),
        ["hook-engine-linux-x64-gnu"]
    );
    for file in &prefix {
        let shown = file.display().to_string();
        assert!(
            shown.starts_with("bin/hook")
                || shown.starts_with("share/man/man1/hook")
                || shown.starts_with("lib/node_modules/hook-engine/"),
            "{shown}: {prefix:?}"
        );
        assert!(!shown.contains("/.") && !shown.starts_with('.'), "{shown}");
    }
    // The user's entry still runs the relay, with the new binary.
    the_entry_runs(&program, &home);

    // The uninstall leaves no file of either package: no link in `bin/`, no man page.
    npm.ok(&["uninstall", "hook-engine"]);
    assert_eq!(files_under(&npm.prefix), Vec::<PathBuf>::new());
}

/// A platform binary that fails the postinstall's check (packaged as another version than
/// it says: `hook --version` must answer with the package's own): the launcher stays, one line
/// says why, what it costs and the fix, and the install succeeds. `hook` still answers,
/// through Node.
#[test]
fn a_binary_failing_its_version_check_keeps_the_launcher_and_says_so_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let release = packages(dir, "0.0.1-wrong");
    let registry = Registry::serve(&[&release]);
    let Some(npm) = Npm::new(dir, &registry) else {
        return;
    };
    // npm shows an install script's output only with --foreground-scripts.
    let said = npm.ok(&["install", "hook-engine", "--foreground-scripts"]);
    let lines: Vec<&str> = said
        .lines()
        .filter(|line| line.starts_with("hook-engine: "))
        .collect();
    assert_eq!(lines.len(), 1, "{said}");
    let binary = npm.platform_binary();
    let version = env!("CARGO_PKG_VERSION");
    for part in [
        &format!(
            "{} --version says \"hook {version}\", not \"hook 0.0.1-wrong\"",
            binary.display()
        ),
        "kept the Node launcher as `hook`",
        "about 70 ms more per start",
        "run `npm rebuild -g hook-engine`",
    ] {
        assert!(lines[0].contains(part), "{part}: {said}");
    }
    let hook = npm.hook();
    assert!(!is_native(&hook));
    assert_eq!(listing(&npm.package().join("bin")), ["hook"]);
    let out = run(&hook, &["--version"], "", None);
    assert_eq!(text(&out.stdout), format!("hook {version}\n"));
}

/// Without the platform package (npm could not fetch it), the postinstall says what is missing in
/// one line and the launcher says it again when run; on Windows and on a platform without a
/// build, the postinstall keeps the launcher silently and the launcher says what is supported.
#[test]
fn without_a_binary_the_postinstall_and_the_launcher_say_what_is_missing_or_supported() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let release = packages(dir, env!("CARGO_PKG_VERSION"));
    let registry = Registry::serve(&[&release]);
    let Some(npm) = Npm::new(dir, &registry) else {
        return;
    };
    // The registry lacks the platform package's tarball: npm leaves the optional dependency
    // out (as it does with --omit=optional in a project; a global install ignores that flag).
    std::fs::remove_file(&release.npm_platform).unwrap();
    let said = npm.ok(&["install", "hook-engine", "--foreground-scripts"]);
    let missing = "hook-engine-linux-x64-gnu or hook-engine-linux-x64-musl) is not installed";
    let lines: Vec<&str> = said
        .lines()
        .filter(|line| line.starts_with("hook-engine: "))
        .collect();
    assert_eq!(lines.len(), 1, "{said}");
    assert!(lines[0].contains(missing), "{said}");
    let launcher = npm.hook();
    let out = run(&launcher, &["--version"], "", None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains(missing), "{stderr}");
    assert!(stderr.contains("--omit=optional"), "{stderr}");

    // Node on Windows, and on a platform without a build (`process.platform`/`arch` faked).
    let fake = dir.join("fake.js");
    write(
        &fake,
        "Object.defineProperty(process, 'platform', {value: process.env.FAKE_PLATFORM});\n\
         Object.defineProperty(process, 'arch', {value: process.env.FAKE_ARCH});\n",
    );
    let shipped = std::fs::read(&launcher).unwrap();
    let node = |script: &Path, platform: &str, arch: &str| {
        Command::new("node")
            .arg("--require")
            .arg(&fake)
            .arg(script)
            .arg("--version")
            .current_dir(npm.package())
            .env("FAKE_PLATFORM", platform)
            .env("FAKE_ARCH", arch)
            .output()
            .unwrap()
    };
    for (platform, arch, says) in [
        ("win32", "x64", "Windows is not supported"),
        ("linux", "ppc64", "there is no build for linux ppc64"),
    ] {
        let out = node(&npm.package().join("bin/hook"), platform, arch);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{platform}: {stderr}");
        assert!(stderr.contains(says), "{platform}: {stderr}");
        assert!(
            stderr.contains("linux-x64-gnu, linux-x64-musl"),
            "{platform}: {stderr}"
        );
        assert!(out.stdout.is_empty());
        // The postinstall there: nothing said, nothing changed, the install goes on.
        let out = node(&npm.package().join("install.js"), platform, arch);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{platform}: {}",
            text(&out.stderr)
        );
        assert!(out.stderr.is_empty() && out.stdout.is_empty(), "{platform}");
        assert_eq!(std::fs::read(&launcher).unwrap(), shipped);
    }
}

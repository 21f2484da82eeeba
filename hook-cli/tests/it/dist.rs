//! What `cargo xtask dist` writes, installed as people install it, from this test's `hook`
//! binary: the npm packages with `npm install -g hook-engine` from a registry on the loopback
//! (`registry`), install scripts on, as a user runs it, and with them off; the wheel into a
//! fresh virtual environment (`pip install --no-index`).
//!
//! - `npm`: with scripts on, `hook` on `PATH` is the native binary (the postinstall put it in
//!   place), answers as the binary does, and a project's entry (bare `hook` through `PATH`)
//!   runs it; an upgrade leaves the new version's binary and no stale file, an uninstall no
//!   file at all. A platform binary that fails the postinstall's `--version` check keeps the
//!   launcher, said in one line; without the platform package the launcher says what is
//!   missing or supported.
//! - `launcher`: with `--ignore-scripts`, `hook` is the Node launcher, which answers as the
//!   binary does and passes signals on; `hook relay install` names the native binary in the
//!   user's entries and says what a project's entries cost through the launcher; `npm rebuild`
//!   then puts the binary in place.
//! - Both installs carry the documentation: the whole README and the man pages the binary
//!   writes (`man hook` finds them in the prefix); the wheel's `hook` is the binary itself.
//! - `scaffold`: `hook new` from the npm install builds against the packaged `hook-sdk`
//!   offline.
//!
//! Each test says it was skipped where npm (or Python's venv and pip) is missing. Only the
//! x86_64 glibc Linux packages are built here, so only they are installed.
#![cfg(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu"))]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use hook_test_support::fs::write;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use crate::cli::text;

// The packaging code of `cargo xtask dist` itself, so what is installed here is what it writes.
#[path = "../../../xtask/src/dist/docs.rs"]
#[allow(dead_code, unreachable_pub)]
mod docs;
#[path = "../../../xtask/src/dist/pack.rs"]
#[allow(dead_code, unreachable_pub)]
mod pack;

// With install scripts off: the Node launcher, its signals, `npm rebuild`.
mod launcher;
// With install scripts on: the native binary as `hook`, upgrade, uninstall, the fallback.
mod npm;
// The loopback registry and npm run against it.
mod registry;
// `hook new` from the npm install against a local registry of the packaged crates.
mod scaffold;

/// The platform this test packages: this machine's (see the `cfg` above).
const TARGET: &str = "x86_64-unknown-linux-gnu";

/// Says on the terminal that a test was skipped, also without `--nocapture`.
fn skip_notice(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

fn works(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// The packages of this test's binary at `version`, written into `dir/dist-<version>` (not
/// compressed: the debug binary is large and the archives are thrown away).
fn packages(dir: &Path, version: &str) -> pack::Written {
    packages_of(dir, version, Path::new(env!("CARGO_BIN_EXE_hook")))
}

/// The packages of `binary` at `version`, as [`packages`].
fn packages_of(dir: &Path, version: &str, binary: &Path) -> pack::Written {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let man = docs::man_pages(binary).unwrap();
    let meta = pack::Meta {
        version,
        root,
        man: &man,
    };
    pack::write_all(
        &meta,
        pack::platform(TARGET).unwrap(),
        binary,
        &dir.join(format!("dist-{version}")),
        pack::Compression::Stored,
    )
    .unwrap()
}

/// A release after this one: the version's digits all 9 (`9.9.9` for `0.1.0`), as long as it.
fn next_version() -> String {
    env!("CARGO_PKG_VERSION")
        .chars()
        .map(|c| if c.is_ascii_digit() { '9' } else { c })
        .collect()
}

/// This test's binary as a release of `version` would be (written as `dir/hook-<version>`): the
/// crates' version in its `.rodata`, where `hook --version` (and `hook new`) read it,
/// rewritten to `version`, of the same length so that nothing moves. Building another release
/// would take minutes.
fn binary_of_version(dir: &Path, version: &str) -> PathBuf {
    let ours = env!("CARGO_PKG_VERSION").as_bytes();
    assert_eq!(ours.len(), version.len(), "{version}");
    let mut elf = std::fs::read(env!("CARGO_BIN_EXE_hook")).unwrap();
    let rodata = section(&elf, ".rodata").unwrap();
    let mut at = rodata.start;
    let mut rewritten = 0;
    while let Some(found) = elf[at..rodata.end]
        .windows(ours.len())
        .position(|w| w == ours)
    {
        let start = at + found;
        elf[start..start + ours.len()].copy_from_slice(version.as_bytes());
        at = start + ours.len();
        rewritten += 1;
    }
    assert!(
        rewritten > 0,
        "no {:?} in .rodata",
        env!("CARGO_PKG_VERSION")
    );
    let path = dir.join(format!("hook-{version}"));
    std::fs::write(&path, elf).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Where the section `name` of a 64-bit little-endian ELF file lies in it.
fn section(elf: &[u8], name: &str) -> Option<std::ops::Range<usize>> {
    let number = |at: usize, size: usize| -> usize {
        let mut bytes = [0u8; 8];
        bytes[..size].copy_from_slice(&elf[at..at + size]);
        usize::try_from(u64::from_le_bytes(bytes)).unwrap()
    };
    let (table, entry) = (number(0x28, 8), number(0x3a, 2));
    let (count, names) = (number(0x3c, 2), number(0x3e, 2));
    let range = |index: usize| {
        let header = table + index * entry;
        let offset = number(header + 0x18, 8);
        (number(header, 4), offset..offset + number(header + 0x20, 8))
    };
    let names = range(names).1;
    (0..count).map(range).find_map(|(at, range)| {
        let wanted = [name.as_bytes(), b"\0"].concat();
        elf[names.start + at..]
            .starts_with(&wanted)
            .then_some(range)
    })
}

/// Whether `path`, links followed, is an ELF executable (not a script).
fn is_native(path: &Path) -> bool {
    let mut start = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut start))
        .is_ok()
        && &start == b"\x7fELF"
}

/// `command -v hook` with `path` as `PATH`, as a shell (and so an agent's entry) finds it.
fn command_v_hook(path: &std::ffi::OsStr) -> PathBuf {
    let out = Command::new("/bin/sh")
        .args(["-c", "command -v hook"])
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    PathBuf::from(text(&out.stdout).trim())
}

/// The names in the folder `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `program args` with `stdin` and `HOME` (`None`: the caller's), no agent variables from the
/// environment running the tests.
fn run(program: &Path, args: &[&str], stdin: &str, home: Option<&Path>) -> Output {
    let mut command = Command::new(program);
    command
        .args(args)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("CLAUDE_ENV_FILE")
        .env_remove("CLAUDE_CONFIG_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(home) = home {
        command.env("HOME", home);
    }
    let mut child = command.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let _ = pipe.write_all(stdin.as_bytes());
    drop(pipe);
    child.wait_with_output().unwrap()
}

/// A Claude Code `PreToolUse` of a Bash `command` in `project`.
fn bash_event(project: &Path, command: &str) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s", "transcript_path": "/t.jsonl",
        "cwd": project, "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "toolu_1"})
    .to_string()
}

/// A verboo home whose own settings and relay file each hold a guard on Bash.
const GUARD: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "echo 'no rm, says the guard' >&2; exit 2"}]}]}}"#;

/// `installed` (the launcher, or the wheel's script) answers as this test's binary does:
/// `--version`, `list`, `relay` answering a deny, `relay` refusing an event without a name,
/// and a usage error: the same stdout, stderr and exit code.
fn answers_as_the_binary(installed: &Path, dir: &Path) {
    let home = dir.join("home");
    let project = dir.join("project");
    std::fs::create_dir_all(&project).unwrap();
    write(&home.join("settings.json"), GUARD);
    write(&home.join("hook-relay/settings.json"), GUARD);
    let (home_arg, project_arg) = (home.display().to_string(), project.display().to_string());
    let list = [
        "list",
        "--dialect",
        "verboo",
        "--home",
        &home_arg,
        "--project",
        &project_arg,
    ];
    let relay = ["relay", "--dialect", "verboo", "--home", &home_arg];
    let rm = bash_event(&project, "rm -rf /");
    let cases: [(&[&str], &str, i32); 6] = [
        (&["--version"], "", 0),
        (&["--help"], "", 0),
        (&list, "", 0),
        (&relay, &rm, 0),
        (&relay, r#"{"cwd": "/"}"#, 2),
        (&["list", "--dialect", "nope"], "", 2),
    ];
    let binary = Path::new(env!("CARGO_BIN_EXE_hook"));
    for (args, stdin, code) in cases {
        let direct = run(binary, args, stdin, None);
        let through = run(installed, args, stdin, None);
        let shown = |out: &Output| {
            format!(
                "{:?}\n{}{}",
                out.status,
                text(&out.stdout),
                text(&out.stderr)
            )
        };
        assert_eq!(
            direct.status.code(),
            Some(code),
            "{args:?}: {}",
            shown(&direct)
        );
        assert_eq!(
            (
                through.status.code(),
                text(&through.stdout),
                text(&through.stderr)
            ),
            (
                direct.status.code(),
                text(&direct.stdout),
                text(&direct.stderr)
            ),
            "{args:?} through {}",
            installed.display()
        );
    }
    // The deny really came through.
    let reply: Value = serde_json::from_slice(&run(installed, &relay, &rm, None).stdout).unwrap();
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecisionReason"],
        "no rm, says the guard"
    );
}

/// `hook relay install` run through `installed` with `HOME` at `home`: the program of the
/// Claude Code entries it wrote, which must run the relay.
fn relay_install_through(installed: &Path, home: &Path) -> PathBuf {
    write(&home.join(".claude/hook-relay/settings.json"), GUARD);
    let out = run(
        installed,
        &["relay", "install", "--dialect", "verboo"],
        "",
        Some(home),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(home.join(".claude/settings.json")).unwrap())
            .unwrap();
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    let words = shlex::split(command).unwrap();
    PathBuf::from(&words[0])
}

/// The entry's `program` answers a relayed event, started by a shell as the agents do.
fn the_entry_runs(program: &Path, home: &Path) {
    let out = run(
        program,
        &["relay", "--dialect", "verboo", "--event", "PreToolUse"],
        &bash_event(home, "rm -rf /"),
        Some(home),
    );
    let reply: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}{}", text(&out.stdout), text(&out.stderr)));
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecision"], "deny",
        "{reply}"
    );
}

/// `dir/team`, a project whose relay file holds [`GUARD`], and `dir/team-home`, the home of
/// the person installing its entries.
fn team(dir: &Path) -> (PathBuf, PathBuf) {
    let (project, home) = (dir.join("team"), dir.join("team-home"));
    if !project.exists() {
        write(&project.join(".claude/hook-relay/settings.json"), GUARD);
        std::fs::create_dir_all(&home).unwrap();
    }
    (project, home)
}

/// `hook args` run in the [`team`] project with its home and `path` as `PATH`, which must
/// succeed: what it printed (stdout, then stderr).
fn in_team(hook: &Path, path: &std::ffi::OsStr, dir: &Path, args: &[&str]) -> String {
    let (project, home) = team(dir);
    let out = Command::new(hook)
        .args(args)
        .current_dir(&project)
        .env("HOME", &home)
        .env("PATH", path)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "hook {args:?}: {said}");
    said
}

/// `hook relay install --agent claude --project .` for the [`team`] project through `hook`,
/// with `path` as `PATH`: what it printed.
fn project_install(hook: &Path, path: &std::ffi::OsStr, dir: &Path) -> String {
    in_team(
        hook,
        path,
        dir,
        &["relay", "install", "--agent", "claude", "--project", "."],
    )
}

/// The [`team`] project's relay hook trusted (through `hook`), its `PreToolUse` entry (bare
/// `hook` through `PATH`) run as Claude Code runs it, `sh -c ENTRY` in the project with
/// `path` as `PATH`: it denies `rm -rf /`.
fn project_entry_denies(hook: &Path, path: &std::ffi::OsStr, dir: &Path) {
    let trust = [
        "trust",
        "--dialect",
        "verboo",
        "--project",
        ".",
        "--relay",
        "--all",
    ];
    in_team(hook, path, dir, &trust);
    let (project, home) = team(dir);
    let settings: Value = serde_json::from_str(
        &std::fs::read_to_string(project.join(".claude/settings.json")).unwrap(),
    )
    .unwrap();
    let entry = crate::relay_install::relay_entries(&settings)
        .into_iter()
        .find(|(event, ..)| event == "PreToolUse")
        .map(|(.., command)| command)
        .unwrap();
    assert!(entry.starts_with("hook relay "), "{entry}");
    let out = hook_test_support::relay::run_entry(
        &entry,
        &project,
        &home,
        path,
        &[("CLAUDE_PROJECT_DIR", project.as_os_str())],
        bash_event(&project, "rm -rf /").as_bytes(),
    );
    let reply: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{entry}: {}{}", text(&out.stdout), text(&out.stderr)));
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecisionReason"], "no rm, says the guard",
        "{reply}"
    );
}

/// An installation's documentation: `readme` is the whole package README (installing, setting
/// up, the tour of the CLI) and `man` (the installation's `share/man`, where `man hook`
/// looks) holds the binary's own pages, `hook.1` and one per command.
fn carries_its_documentation(readme: &Path, man: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let installed = std::fs::read_to_string(readme).unwrap();
    assert_eq!(
        installed,
        std::fs::read_to_string(root.join("packaging/README.md")).unwrap()
    );
    for section in [
        "## Install",
        "## Set up",
        "## A tour of the CLI",
        "hook relay install --agent claude --move",
        "hook new my-guard",
    ] {
        assert!(installed.contains(section), "{section}: {installed}");
    }
    assert!(docs::placeholder_urls(&installed).is_empty(), "{installed}");
    let out = run(Path::new(env!("CARGO_BIN_EXE_hook")), &["man"], "", None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = |name: &str| {
        // npm links the pages; `canonicalize` follows the link to the package's file.
        let path = man.join("man1").join(name);
        std::fs::read_to_string(path.canonicalize().unwrap_or(path)).unwrap()
    };
    assert_eq!(page("hook.1"), text(&out.stdout));
    assert!(page("hook.1").contains("hook\\-relay(1)"));
    assert!(page("hook-relay-install.1").contains(".TH hook-relay-install 1"));
}

#[test]
fn the_wheel_in_a_fresh_virtual_environment_answers_as_the_binary() {
    if !works("python3", &["-m", "pip", "--version"]) {
        skip_notice("skipped: python3 with pip is not installed (the wheel cannot be installed)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let written = packages(dir.path(), env!("CARGO_PKG_VERSION"));
    let venv = dir.path().join("venv");
    // A fresh environment, without pip of its own: this machine's pip installs into it.
    let out = Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python3 -m venv: {}",
        text(&out.stderr)
    );
    let out = Command::new("python3")
        .args(["-m", "pip", "--python"])
        .arg(venv.join("bin/python"))
        .args([
            "install",
            "--no-index",
            "--no-cache-dir",
            "--disable-pip-version-check",
            "--quiet",
        ])
        .arg(&written.wheel)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "pip install: {}", text(&out.stderr));
    // The wheel's script is the binary itself: no launcher. `command -v hook` in the
    // environment (its `bin/` first on PATH, as `activate` puts it) finds that ELF file.
    let script = venv.join("bin/hook");
    let mut path = vec![venv.join("bin")];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let found = command_v_hook(&std::env::join_paths(path).unwrap());
    assert_eq!(found, script);
    assert!(is_native(&found));
    assert_eq!(
        std::fs::read(&script).unwrap(),
        std::fs::read(env!("CARGO_BIN_EXE_hook")).unwrap()
    );
    answers_as_the_binary(&script, dir.path());
    // The wheel's METADATA holds the README, which pip keeps in the dist-info.
    let info = venv.join(format!(
        "lib/python{}/site-packages/hook_engine-{}.dist-info/METADATA",
        python_version(),
        env!("CARGO_PKG_VERSION")
    ));
    let metadata = std::fs::read_to_string(&info).unwrap();
    let (_, readme) = metadata.split_once("\n\n").unwrap();
    std::fs::write(dir.path().join("README.md"), readme).unwrap();
    carries_its_documentation(&dir.path().join("README.md"), &venv.join("share/man"));

    let home = dir.path().join("user");
    std::fs::create_dir_all(&home).unwrap();
    let program = relay_install_through(&script, &home);
    assert_eq!(program, script.canonicalize().unwrap());
    the_entry_runs(&program, &home);
}

/// `3.12` for Python 3.12: where a virtual environment keeps its packages.
fn python_version() -> String {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')",
        ])
        .output()
        .unwrap();
    text(&out.stdout).trim().to_owned()
}

/// The wheel's platform tag names the newest glibc the binary needs, as `objdump -T` reads it
/// (where binutils are installed).
#[test]
fn the_wheel_tag_names_the_glibc_objdump_finds() {
    let binary = std::fs::read(env!("CARGO_BIN_EXE_hook")).unwrap();
    let (major, minor) = pack::newest_glibc(&binary).unwrap();
    let Ok(out) = Command::new("objdump")
        .arg("-T")
        .arg(env!("CARGO_BIN_EXE_hook"))
        .output()
    else {
        skip_notice("skipped: objdump is not installed");
        return;
    };
    let symbols = text(&out.stdout);
    let newest = symbols
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .filter_map(|word| word.strip_prefix("GLIBC_"))
        .filter_map(|version| {
            let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
            Some((parts.next()??, parts.next()??))
        })
        .max();
    assert_eq!(newest, Some((major, minor)), "{symbols}");
}

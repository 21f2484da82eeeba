//! What `cargo xtask dist` writes, installed as people install it, from this test's `hook`
//! binary: the two npm packages offline into a temporary prefix (`npm install -g --offline`),
//! the wheel into a fresh virtual environment (`pip install --no-index`). `hook` through the
//! npm launcher and through the wheel's script gives the binary's own output and exit codes,
//! the launcher passes signals on and ends as the binary ended, and `hook relay install`
//! through it writes the native binary's path, which an upgrade keeps. Both installs carry the
//! documentation: the whole README and the man pages the binary writes (`man hook` finds them
//! in the prefix). `hook new` from the npm install builds against the packaged `hook-sdk`
//! offline (`scaffold`). Each test says it was skipped where npm (or Python's venv and pip) is
//! missing.
//!
//! Only the x86_64 glibc Linux packages are built here, so only they are installed.
#![cfg(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu"))]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use hook_test_support::fs::write;
use std::io::Write as _;
use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use crate::cli::text;
use crate::signals::{SLEEPER, alive, dies, exits, signal};

// The packaging code of `cargo xtask dist` itself, so what is installed here is what it writes.
#[path = "../../../xtask/src/dist/docs.rs"]
#[allow(dead_code, unreachable_pub)]
mod docs;
#[path = "../../../xtask/src/dist/pack.rs"]
#[allow(dead_code, unreachable_pub)]
mod pack;

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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let binary = Path::new(env!("CARGO_BIN_EXE_hook"));
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

/// `npm install -g` of `tarballs` into `prefix`, offline (npm's cache in `dir` too); `None`,
/// said, without npm.
fn npm_install(dir: &Path, prefix: &Path, tarballs: &[&Path]) -> Option<Output> {
    if !works("npm", &["--version"]) {
        skip_notice("skipped: npm is not installed (the npm packages cannot be installed)");
        return None;
    }
    let out = Command::new("npm")
        .args([
            "install",
            "-g",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--prefix",
        ])
        .arg(prefix)
        .arg("--cache")
        .arg(dir.join("npm-cache"))
        .args(tarballs)
        .env("npm_config_update_notifier", "false")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Some(out)
}

/// Both npm packages installed into `dir/prefix`: the launcher `hook` on its `bin`.
fn npm_installed(dir: &Path) -> Option<PathBuf> {
    let written = packages(dir, env!("CARGO_PKG_VERSION"));
    let prefix = dir.join("prefix");
    let out = npm_install(dir, &prefix, &[&written.npm_main, &written.npm_platform])?;
    assert!(out.status.success(), "npm install: {}", text(&out.stderr));
    let launcher = prefix.join("bin/hook");
    // npm links the launcher (a Node script), not the binary.
    let target = std::fs::canonicalize(&launcher).unwrap();
    assert!(target.ends_with("hook-engine/bin/hook.js"), "{target:?}");
    Some(launcher)
}

/// The native binary the npm packages installed into `dir/prefix`.
fn npm_binary(dir: &Path) -> PathBuf {
    dir.join("prefix/lib/node_modules/hook-engine-linux-x64-gnu/bin/hook")
        .canonicalize()
        .unwrap()
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

/// The npm packages installed once (each install unpacks the 60 MB debug binary: doing it
/// once instead of three times took about 10 s of CPU off the suite), then, in order: the
/// launcher answers as the binary does; it passes SIGTERM on and ends as the binary ended;
/// `hook relay install` through it writes the native binary's path, which an upgrade keeps.
/// The upgrade comes last: it replaces the installed packages.
#[test]
fn the_npm_launcher_answers_as_the_binary_passes_signals_on_and_survives_an_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let Some(launcher) = npm_installed(dir.path()) else {
        return;
    };
    answers_as_the_binary(&launcher, dir.path());
    carries_its_documentation(
        &dir.path()
            .join("prefix/lib/node_modules/hook-engine/README.md"),
        &dir.path().join("prefix/share/man"),
    );
    passes_sigterm_on_and_ends_as_the_binary_ended(&launcher, dir.path());
    relay_install_names_the_native_binary_which_an_upgrade_keeps(&launcher, dir.path());
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

/// The wait status of `child` once it exits by itself (60 s at most, then a failure).
fn ended(child: &mut std::process::Child, what: &str) -> std::process::ExitStatus {
    exits(child).unwrap_or_else(|| panic!("{what}: the launcher never exited"))
}

/// The processes `pid` started (every thread's children: Node forks from more than one).
fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let path = task.unwrap().path().join("children");
        let text = std::fs::read_to_string(path).unwrap_or_default();
        found.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    found
}

/// SIGTERM to the launcher reaches `hook run`, which kills its hooks; a binary killed by a
/// signal makes the launcher die of it. The packages are installed in `dir/prefix`.
fn passes_sigterm_on_and_ends_as_the_binary_ended(launcher: &Path, dir: &Path) {
    // A wuu home (its user layer runs without trust) whose hook sleeps, and its event.
    let (home, project) = (dir.join("wuu-home"), dir.join("wuu-project"));
    std::fs::create_dir_all(&project).unwrap();
    let config = json!({"hooks": {"PreToolUse": [
        {"matcher": "*", "type": "command", "command": SLEEPER, "timeout": 600}]}});
    write(&home.join("config.json"), &config.to_string());
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "tool_name": "bash", "tool_input": {"command": "ls"}, "cwd": project});
    write(&dir.join("event.json"), &event.to_string());
    let start = || {
        std::fs::remove_file(project.join("pids")).ok();
        Command::new(launcher)
            .args(["run", "--dialect", "wuu", "--event", "PreToolUse", "--home"])
            .arg(&home)
            .arg("--project")
            .arg(&project)
            .arg("--input")
            .arg(dir.join("event.json"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // The hook's pids, once it wrote both (a bounded wait).
    let pids = || -> Vec<u32> {
        for _ in 0..3000 {
            if let Ok(text) = std::fs::read_to_string(project.join("pids")) {
                let pids: Vec<u32> = text.lines().filter_map(|l| l.parse().ok()).collect();
                if pids.len() >= 2 && text.ends_with('\n') {
                    return pids;
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        panic!("the hook never wrote its pids");
    };
    let binary = npm_binary(dir);
    let native_child = |launcher: u32| -> u32 {
        let found: Vec<u32> = children(launcher)
            .into_iter()
            .filter(|pid| {
                std::fs::read_link(format!("/proc/{pid}/exe")).ok() == Some(binary.clone())
            })
            .collect();
        assert_eq!(found.len(), 1, "the launcher's hook children: {found:?}");
        found[0]
    };

    // SIGTERM to the launcher reaches `hook run`, which kills its hooks and exits 128 + 15:
    // the launcher exits with that code.
    let mut child = start();
    let hooks = pids();
    let native = native_child(child.id());
    signal(child.id(), "TERM");
    let status = ended(&mut child, "SIGTERM");
    let survivors: Vec<u32> = hooks.iter().copied().filter(|p| !dies(*p)).collect();
    for pid in &survivors {
        signal(*pid, "KILL");
    }
    let stderr = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert_eq!(status.code(), Some(128 + 15), "{status:?}: {stderr}");
    assert!(stderr.contains("SIGTERM received"), "{stderr}");
    assert!(survivors.is_empty(), "hooks {survivors:?} survived");
    assert!(dies(native), "hook run {native} survived");

    // A binary killed by a signal: the launcher dies of the same signal.
    let mut child = start();
    let hooks = pids();
    signal(native_child(child.id()), "KILL");
    let status = ended(&mut child, "SIGKILL of the binary");
    for pid in hooks {
        if alive(pid) {
            signal(pid, "KILL");
        }
    }
    assert_eq!(status.signal(), Some(9), "{status:?}");
}

/// `hook relay install` through `launcher` (installed in `dir/prefix`) writes the platform
/// package's native binary, and an upgrade of the packages keeps that path running the relay.
fn relay_install_names_the_native_binary_which_an_upgrade_keeps(launcher: &Path, dir: &Path) {
    let home = dir.join("user");
    std::fs::create_dir_all(&home).unwrap();
    let program = relay_install_through(launcher, &home);
    // The native binary of the platform package, not the launcher (nor npm's link to it).
    assert_eq!(program, npm_binary(dir));
    assert_ne!(program, launcher);
    the_entry_runs(&program, &home);

    // An upgrade: npm installs the next version's packages where the last ones were, so the
    // path in the agent's settings still runs the relay.
    let next = packages(dir, "99.0.0");
    let prefix = dir.join("prefix");
    let out = npm_install(dir, &prefix, &[&next.npm_main, &next.npm_platform]).unwrap();
    assert!(out.status.success(), "npm install: {}", text(&out.stderr));
    let manifest = std::fs::read_to_string(
        prefix.join("lib/node_modules/hook-engine-linux-x64-gnu/package.json"),
    )
    .unwrap();
    assert!(manifest.contains("\"version\": \"99.0.0\""), "{manifest}");
    the_entry_runs(&program, &home);
}

#[test]
fn the_npm_launcher_says_what_is_supported_where_it_has_no_binary() {
    let dir = tempfile::tempdir().unwrap();
    let written = packages(dir.path(), env!("CARGO_PKG_VERSION"));
    let prefix = dir.path().join("prefix");
    // The launcher's package alone: npm (offline) could not fetch the platform package.
    let Some(out) = npm_install(dir.path(), &prefix, &[&written.npm_main]) else {
        return;
    };
    assert!(out.status.success(), "npm install: {}", text(&out.stderr));
    let launcher = prefix.join("bin/hook");
    let out = run(&launcher, &["--version"], "", None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr
            .contains("hook-engine-linux-x64-gnu or hook-engine-linux-x64-musl) is not installed"),
        "{stderr}"
    );
    assert!(stderr.contains("--omit=optional"), "{stderr}");

    // Node on Windows, and on a platform without a build (`process.platform`/`arch` faked).
    let fake = dir.path().join("fake.js");
    write(
        &fake,
        "Object.defineProperty(process, 'platform', {value: process.env.FAKE_PLATFORM});\n\
         Object.defineProperty(process, 'arch', {value: process.env.FAKE_ARCH});\n",
    );
    for (platform, arch, says) in [
        ("win32", "x64", "Windows is not supported"),
        ("linux", "ppc64", "there is no build for linux ppc64"),
    ] {
        let out = Command::new("node")
            .arg("--require")
            .arg(&fake)
            .arg(prefix.join("lib/node_modules/hook-engine/bin/hook.js"))
            .arg("--version")
            .env("FAKE_PLATFORM", platform)
            .env("FAKE_ARCH", arch)
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{platform}: {stderr}");
        assert!(stderr.contains(says), "{platform}: {stderr}");
        assert!(
            stderr.contains("linux-x64-gnu, linux-x64-musl"),
            "{platform}: {stderr}"
        );
        assert!(out.stdout.is_empty());
    }
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
    // The wheel's script is the binary itself: no launcher.
    let script = venv.join("bin/hook");
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

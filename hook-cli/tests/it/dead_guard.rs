//! A dead guard is seen at once, for both agents' relay: a guard that blocked ten times loses
//! its program from the agent's `PATH`; on its next (failing) run `hook stats` flags it, the
//! relay names it in the agent's session (once), and after `hook relay uninstall` with the
//! relay file left, `hook doctor` fails. Spawns the binary: the relay's `PATH`, `HOME`,
//! `CODEX_HOME` and `CLAUDE_PROJECT_DIR` are the agent's environment.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::ffi::{OsStr, OsString};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use hook_protocol::input::example_input;
use hook_protocol::{Dialect, Event};
use serde_json::{Value, json};

use crate::cli::text;

/// The guard: a program of its own on the agent's `PATH` (as `jq` is for a jq guard).
const GUARD: &str =
    "#!/bin/sh\ngrep -q 'rm -rf' && { echo 'rm -rf is blocked' >&2; exit 2; }\nexit 0\n";

/// A user's machine: `HOME`, the agent's home under it, a project, a folder with the guard.
struct Machine {
    _dir: tempfile::TempDir,
    dialect: Dialect,
    home: PathBuf,
    project: PathBuf,
    bin: PathBuf,
}

impl Machine {
    fn new(dialect: Dialect) -> Machine {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let home = root.join("home");
        let project = root.join("project");
        let bin = root.join("bin");
        for folder in [&home, &project, &bin] {
            std::fs::create_dir_all(folder).unwrap();
        }
        let guard = bin.join("rm-guard");
        std::fs::write(&guard, GUARD).unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&guard, std::fs::Permissions::from_mode(0o755)).unwrap();
        let machine = Machine {
            _dir: dir,
            dialect,
            home,
            project,
            bin,
        };
        // The relay file: the guard on Bash.
        let agent = dialect.rules().agent().relay().unwrap();
        let relay_dir = machine.home.join(agent.home_dir).join("hook-relay");
        std::fs::create_dir_all(&relay_dir).unwrap();
        if dialect == Dialect::Verboo {
            let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": "rm-guard"}]}]}});
            std::fs::write(relay_dir.join("settings.json"), settings.to_string()).unwrap();
        } else {
            std::fs::write(
                relay_dir.join("config.toml"),
                "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"rm-guard\"\n",
            )
            .unwrap();
        }
        machine
    }

    /// `hook args` in this machine's environment (`PATH` as given).
    fn hook(&self, args: &[&str], stdin: &[u8], path: &OsStr) -> Output {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hook"));
        command
            .args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env("CODEX_HOME", self.home.join(".codex"))
            .env("PATH", path)
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("LIME_HOME")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("CLAUDE_ENV_FILE")
            .env_remove("HOOK_JOURNAL")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if self.dialect == Dialect::Verboo {
            // What Claude Code sets for every hook it starts.
            command.env("CLAUDE_PROJECT_DIR", &self.project);
        }
        let mut child = command.spawn().unwrap();
        let _ = child.stdin.take().unwrap().write_all(stdin);
        child.wait_with_output().unwrap()
    }

    /// A command of the user's, with the machine's own `PATH`.
    fn user(&self, args: &[&str]) -> Output {
        self.hook(args, b"", &self.path(true))
    }

    /// The agent's `PATH`, with or without the guard's folder.
    fn path(&self, with_guard: bool) -> OsString {
        let mut path = OsString::new();
        if with_guard {
            path.push(self.bin.as_os_str());
            path.push(":");
        }
        path.push("/usr/bin:/bin");
        path
    }

    /// The agent calls the relay on a Bash call of `command`, as its entry does.
    fn relay(&self, session: &str, command: &str, with_guard: bool) -> Output {
        self.relay_on(session, command, &self.path(with_guard))
    }

    /// The relay file holds one guard on Bash: `fields` (JSON, turned into TOML for Codex).
    fn guard(&self, fields: &Value) {
        let agent = self.dialect.rules().agent().relay().unwrap();
        let relay_dir = self.home.join(agent.home_dir).join("hook-relay");
        if self.dialect == Dialect::Verboo {
            let settings =
                json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [fields]}]}});
            std::fs::write(relay_dir.join("settings.json"), settings.to_string()).unwrap();
        } else {
            let mut toml =
                "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n".to_owned();
            for (name, value) in fields.as_object().unwrap() {
                toml.push_str(&format!("{name} = {value}\n"));
            }
            std::fs::write(relay_dir.join("config.toml"), toml).unwrap();
        }
    }

    /// `hook relay install` as the user runs it (Codex's entries trusted with `--trust`), and
    /// every relay hook trusted.
    fn install(&self, codex_trust: bool) {
        let d = self.dialect.to_string();
        let mut args = vec!["relay", "install", "--dialect", &d];
        if codex_trust && self.dialect == Dialect::Lime {
            args.push("--trust");
        }
        let out = self.user(&args);
        assert!(out.status.success(), "{d}: {}", text(&out.stderr));
        self.trust_all();
    }

    /// `hook trust --relay --all`.
    fn trust_all(&self) {
        let d = self.dialect.to_string();
        let out = self.user(&["trust", "--dialect", &d, "--relay", "--all"]);
        assert!(out.status.success(), "{d}: {}", text(&out.stderr));
    }

    /// `hook relay status` and `hook doctor` (with this machine's `PATH`): exit code and stdout
    /// of each.
    fn status_and_doctor(&self) -> ((Option<i32>, String), (Option<i32>, String)) {
        let d = self.dialect.to_string();
        let project = self.project.display().to_string();
        let status = self.user(&["relay", "status", "--dialect", &d, "--project", &project]);
        let doctor = self.user(&["doctor", "--dialect", &d, "--project", &project]);
        (
            (status.status.code(), text(&status.stdout)),
            (doctor.status.code(), text(&doctor.stdout)),
        )
    }

    /// The agent calls the relay on a Bash call of `command`, with `path` as its `PATH`.
    fn relay_on(&self, session: &str, command: &str, path: &OsStr) -> Output {
        let event = Event::PreToolUse;
        let cwd = self.project.display().to_string();
        let mut input = example_input(self.dialect, &event, &cwd, Some("Bash")).unwrap();
        input["tool_input"] = json!({ "command": command });
        input["session_id"] = session.into();
        let dialect = self.dialect.to_string();
        self.hook(
            &["relay", "--dialect", &dialect, "--event", "PreToolUse"],
            input.to_string().as_bytes(),
            path,
        )
    }
}

/// The `systemMessage` of a relay answer, or "".
fn system_message(out: &Output) -> String {
    serde_json::from_slice::<Value>(&out.stdout)
        .ok()
        .and_then(|v| v["systemMessage"].as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[test]
fn a_guard_whose_program_left_the_path_is_flagged_named_once_and_found_by_doctor() {
    for dialect in [Dialect::Verboo, Dialect::Lime] {
        let machine = Machine::new(dialect);
        let d = dialect.to_string();
        let install: &[&str] = if dialect == Dialect::Lime {
            &["relay", "install", "--dialect", &d, "--trust"]
        } else {
            &["relay", "install", "--dialect", &d]
        };
        let out = machine.user(install);
        assert!(out.status.success(), "{d}: {}", text(&out.stderr));
        if dialect == Dialect::Lime {
            // Codex's relay hooks run once the relay trusts them too.
            let out = machine.user(&["trust", "--dialect", &d, "--relay", "--all"]);
            assert!(out.status.success(), "{d}: {}", text(&out.stderr));
        }
        // Ten blocks.
        for _ in 0..10 {
            let out = machine.relay("s1", "rm -rf build", true);
            assert!(
                text(&out.stdout).contains("rm -rf is blocked"),
                "{d}: {}{}",
                text(&out.stdout),
                text(&out.stderr)
            );
        }
        let key = |stats: &Value| -> Value {
            stats
                .as_array()
                .unwrap()
                .iter()
                .find(|h| h["key"].as_str().unwrap().contains("PreToolUse:Bash:0"))
                .cloned()
                .unwrap_or_else(|| panic!("{d}: no guard in {stats:#}"))
        };
        let stats = |machine: &Machine| -> Value {
            let out = machine.user(&["stats", "--dialect", &d, "--json"]);
            assert!(out.status.success(), "{d}: {}", text(&out.stderr));
            serde_json::from_slice(&out.stdout).unwrap()
        };
        let before = key(&stats(&machine));
        assert_eq!(before["blocks"], 10, "{d}: {before:#}");
        assert_eq!(before["flags"], json!([]), "{d}: {before:#}");

        // The guard's program is gone from the agent's PATH: the call goes through, and the
        // relay says why, once in the session.
        let first = machine.relay("s1", "rm -rf build", false);
        let said = system_message(&first);
        assert!(
            said.contains("could not do its job") && said.contains("PreToolUse:Bash:0"),
            "{d}: {said}\n{}",
            text(&first.stderr)
        );
        assert!(said.contains("went ahead without it"), "{d}: {said}");
        let again = machine.relay("s1", "rm -rf build", false);
        assert!(
            !system_message(&again).contains("PreToolUse:Bash:0"),
            "{d}: said twice in one session: {}",
            system_message(&again)
        );
        // A new session is told again.
        let other = machine.relay("s2", "ls", false);
        assert!(
            system_message(&other).contains("could not do its job"),
            "{d}: {}",
            system_message(&other)
        );

        // `hook stats` flags it, whatever it did before.
        let after = key(&stats(&machine));
        let flags = after["flags"].to_string();
        assert!(
            flags.contains("failing now") && flags.contains("after 10 that worked"),
            "{d}: {after:#}"
        );
        // The relay's own entries are not hooks that never matched.
        let all = stats(&machine);
        assert!(
            !all.as_array()
                .unwrap()
                .iter()
                .any(|h| h["key"].as_str().unwrap_or("").contains("SessionStart")),
            "{d}: {all:#}"
        );

        // `hook doctor` before uninstall: the guard is not on the agent's PATH (recorded by the
        // relay the agent started), but the relay is installed.
        let doctor = |machine: &Machine| -> (Option<i32>, String) {
            let project = machine.project.display().to_string();
            let out = machine.user(&["doctor", "--dialect", &d, "--project", &project]);
            (out.status.code(), text(&out.stdout))
        };
        let (code, report) = doctor(&machine);
        assert_eq!(code, Some(1), "{d}: {report}");
        assert!(
            report.contains("`rm-guard` is not on the agent's PATH"),
            "{d}: {report}"
        );
        assert!(!report.contains("relay is not installed"), "{d}: {report}");
        // Uninstalled, with the relay file still there: an error, whatever the PATH.
        let out = machine.user(&["relay", "uninstall", "--dialect", &d]);
        assert!(out.status.success(), "{d}: {}", text(&out.stderr));
        // With the guard's folder on the PATH given, only the install is wrong.
        let path = machine.path(true);
        let project = machine.project.display().to_string();
        let path_arg = path.to_string_lossy().into_owned();
        let out = machine.hook(
            &[
                "doctor",
                "--dialect",
                &d,
                "--project",
                &project,
                "--path",
                &path_arg,
            ],
            b"",
            &path,
        );
        let report = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{d}: {report}");
        assert!(
            report.contains("the relay is not installed"),
            "{d}: {report}"
        );
        assert!(
            report.contains("hook relay install --dialect"),
            "{d}: {report}"
        );
        assert!(
            !report.contains("is not on the agent's PATH"),
            "{d}: {report}"
        );
    }
}

/// The relay's own session memory stays in its home: nothing beside the agent's settings.
#[test]
fn the_session_memory_is_a_private_folder_of_the_relays_home() {
    let machine = Machine::new(Dialect::Verboo);
    let out = machine.user(&["relay", "install", "--dialect", "verboo"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = machine.relay("s1", "ls", false);
    assert!(system_message(&out).contains("could not do its job"));
    let said = find(&machine.home, "hook-relay-said");
    let said = said.unwrap_or_else(|| panic!("no session memory under {}", machine.home.display()));
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(&said).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700, "{}", said.display());
    assert_eq!(std::fs::read_dir(&said).unwrap().count(), 1);
}

/// The folder named `name` somewhere under `root`.
fn find(root: &Path, name: &str) -> Option<PathBuf> {
    for entry in std::fs::read_dir(root).ok()?.flatten() {
        let path = entry.path();
        if !path.is_dir() || path.is_symlink() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
        if let Some(found) = find(&path, name) {
            return Some(found);
        }
    }
    None
}

/// A guard script of the machine's, executable.
fn script(machine: &Machine, name: &str, body: &str) -> PathBuf {
    let path = machine.bin.join(name);
    std::fs::write(&path, body).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn status_exits_1_naming_a_deleted_guard_script_with_no_event_since() {
    for dialect in [Dialect::Verboo, Dialect::Lime] {
        let machine = Machine::new(dialect);
        let guard = script(&machine, "guard.sh", GUARD);
        let command = guard.display().to_string();
        machine.guard(&json!({"type": "command", "command": command}));
        machine.install(true);
        let ((code, status), (doctor_code, doctor)) = machine.status_and_doctor();
        assert_eq!(code, Some(0), "{dialect}: {status}");
        assert!(status.contains("guarding"), "{dialect}: {status}");
        assert_eq!(doctor_code, Some(0), "{dialect}: {doctor}");

        std::fs::remove_file(&guard).unwrap();
        let ((code, status), (doctor_code, doctor)) = machine.status_and_doctor();
        assert_eq!(code, Some(1), "{dialect}: {status}");
        assert!(
            status.contains(&format!("its program {command} does not exist")),
            "{dialect}: {status}"
        );
        assert!(!status.contains("guarding"), "{dialect}: {status}");
        assert_eq!(doctor_code, Some(1), "{dialect}: {doctor}");
        assert!(doctor.contains(&command), "{dialect}: {doctor}");
    }
}

#[test]
fn status_and_doctor_exit_1_naming_trust_while_codex_does_not_trust_the_relays_entries() {
    let machine = Machine::new(Dialect::Lime);
    machine.install(false);
    let ((code, status), (doctor_code, doctor)) = machine.status_and_doctor();
    assert_eq!(code, Some(1), "{status}");
    assert!(
        status.contains("Codex does not trust the relay's entries for SessionStart, PreToolUse"),
        "{status}"
    );
    assert!(
        status.contains("hook relay install --agent codex --trust"),
        "{status}"
    );
    assert_eq!(doctor_code, Some(1), "{doctor}");
    assert!(
        doctor.contains("hook relay install --agent codex --trust"),
        "{doctor}"
    );
    // `--json` says it too, and is not the same after `--trust`.
    let json_of = |machine: &Machine| {
        let out = machine.user(&["relay", "status", "--agent", "codex", "--json"]);
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let before = json_of(&machine);
    assert_eq!(before["guarding"], false, "{before:#}");

    machine.install(true);
    let ((code, status), (doctor_code, doctor)) = machine.status_and_doctor();
    assert_eq!(code, Some(0), "{status}");
    assert_eq!(doctor_code, Some(0), "{doctor}");
    let after = json_of(&machine);
    assert_eq!(after["guarding"], true, "{after:#}");
    assert_ne!(before, after);
}

#[test]
fn a_guards_timeout_raised_after_install_is_named_by_status_and_doctor() {
    for dialect in [Dialect::Verboo, Dialect::Lime] {
        let machine = Machine::new(dialect);
        machine.guard(&json!({"type": "command", "command": "rm-guard", "timeout": 10}));
        machine.install(true);
        let ((code, status), _) = machine.status_and_doctor();
        assert_eq!(code, Some(0), "{dialect}: {status}");

        // Raised after install: the entry still says 15 s.
        machine.guard(&json!({"type": "command", "command": "rm-guard", "timeout": 300}));
        machine.trust_all();
        let ((code, status), (doctor_code, doctor)) = machine.status_and_doctor();
        assert_eq!(code, Some(1), "{dialect}: {status}");
        for report in [&status, &doctor] {
            assert!(
                report.contains("its timeout (300 s) needs a relay entry of 305 s (the relay's own time added), but its entry gives 15 s"),
                "{dialect}: {report}"
            );
            assert!(
                report.contains(&format!(
                    "hook relay sync --agent {}",
                    if dialect == Dialect::Lime {
                        "codex"
                    } else {
                        "claude"
                    }
                )),
                "{dialect}: {report}"
            );
        }
        assert_eq!(doctor_code, Some(1), "{dialect}: {doctor}");
    }
}

#[test]
fn a_guard_that_exits_0_with_jq_missing_is_flagged_by_stats_status_and_doctor() {
    for dialect in [Dialect::Verboo, Dialect::Lime] {
        let machine = Machine::new(dialect);
        let guard = script(
            &machine,
            "jq-guard.sh",
            "#!/bin/sh\ncommand=$(jq -r .tool_input.command)\ncase \"$command\" in *'rm -rf'*) echo blocked >&2; exit 2;; esac\nexit 0\n",
        );
        machine.guard(&json!({"type": "command", "command": guard.display().to_string()}));
        machine.install(true);
        // The agent's PATH has the guard's folder and no `jq`: the guard exits 0.
        let out = machine.relay_on("s1", "rm -rf build", machine.bin.as_os_str());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{dialect}: {}",
            text(&out.stderr)
        );
        assert!(
            !text(&out.stdout).contains("blocked"),
            "{dialect}: {}",
            text(&out.stdout)
        );

        let d = dialect.to_string();
        let out = machine.user(&["stats", "--dialect", &d, "--json"]);
        let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
        let hook = stats
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["key"].as_str().unwrap().contains("PreToolUse:Bash:0"))
            .unwrap_or_else(|| panic!("{d}: {stats:#}"));
        assert_eq!(hook["missing_program"], "jq", "{d}: {hook:#}");
        assert!(
            hook["flags"].to_string().contains("degraded"),
            "{d}: {hook:#}"
        );
        // The default view says it too.
        let out = machine.user(&["stats", "--dialect", &d]);
        assert!(
            text(&out.stdout).contains("degraded: its latest run"),
            "{d}: {}",
            text(&out.stdout)
        );

        let ((code, status), (doctor_code, doctor)) = machine.status_and_doctor();
        assert_eq!(code, Some(1), "{d}: {status}");
        assert_eq!(doctor_code, Some(1), "{d}: {doctor}");
        for report in [&status, &doctor] {
            assert!(
                report.contains("degraded: its latest run") && report.contains("`jq` is missing"),
                "{d}: {report}"
            );
        }
    }
}

#[test]
fn guards_the_relay_cannot_run_and_broken_ones_fail_status_and_doctor() {
    let cases: &[(Dialect, Value, &str)] = &[
        (
            Dialect::Verboo,
            json!({"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"}),
            "a `prompt` guard on PreToolUse never runs under the relay",
        ),
        (
            Dialect::Verboo,
            json!({"type": "mcp_tool", "server": "guard", "tool": "deny_rm"}),
            "a `mcp_tool` guard on PreToolUse never runs under the relay",
        ),
        (
            Dialect::Lime,
            json!({"type": "mcp_tool", "server": "guard", "tool": "deny_rm"}),
            "a `mcp_tool` guard on PreToolUse never runs under the relay",
        ),
        (
            Dialect::Verboo,
            json!({"type": "command", "command": "rm-guard", "timeout": "30"}),
            "settings.json:1:",
        ),
        (
            Dialect::Lime,
            json!({"type": "command", "command": "rm-guard", "timeout": "30"}),
            "config.toml:5:11",
        ),
        (
            Dialect::Lime,
            json!({"type": "prompt", "prompt": "Is this safe?"}),
            "a `prompt` guard on PreToolUse never runs under the relay",
        ),
        (
            Dialect::Verboo,
            json!({"type": "command", "command": "rm-guard", "onFailure": "Block"}),
            "write \"block\", in lower case",
        ),
        (
            Dialect::Lime,
            json!({"type": "command", "command": "rm-guard", "onFailure": "Block"}),
            "write \"block\", in lower case",
        ),
    ];
    for (dialect, fields, said) in cases {
        let machine = Machine::new(*dialect);
        machine.guard(fields);
        machine.install(true);
        let ((code, status), (doctor_code, doctor)) = machine.status_and_doctor();
        assert_eq!(code, Some(1), "{dialect} {fields}: {status}");
        assert_eq!(doctor_code, Some(1), "{dialect} {fields}: {doctor}");
        for report in [&status, &doctor] {
            assert!(report.contains(said), "{dialect} {fields}: {report}");
        }
    }
    // A relay file that no longer parses (a missing comma, an unclosed string), after install.
    for dialect in [Dialect::Verboo, Dialect::Lime] {
        let machine = Machine::new(dialect);
        machine.install(true);
        let agent = dialect.rules().agent().relay().unwrap();
        let relay_dir = machine.home.join(agent.home_dir).join("hook-relay");
        let (name, broken) = if dialect == Dialect::Verboo {
            (
                "settings.json",
                r#"{"hooks": {"PreToolUse": [{"matcher": "Bash" "hooks": [{"type": "command", "command": "rm-guard", "onFailure": "block"}]}]}}"#,
            )
        } else {
            (
                "config.toml",
                "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"rm-guard\nonFailure = \"block\"\n",
            )
        };
        std::fs::write(relay_dir.join(name), broken).unwrap();
        let ((code, status), (doctor_code, doctor)) = machine.status_and_doctor();
        assert_eq!(code, Some(1), "{dialect}: {status}");
        assert_eq!(doctor_code, Some(1), "{dialect}: {doctor}");
        // `file:line:col` of the error (JSON: line 1; TOML: the line of the unclosed string).
        let at = if dialect == Dialect::Verboo { "1" } else { "5" };
        for report in [&status, &doctor] {
            assert!(
                report.contains(&format!("hook-relay/{name}:{at}:")),
                "{dialect}: {report}"
            );
        }
    }
}

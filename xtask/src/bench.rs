//! `cargo xtask bench cli`: what `hook run` costs a caller that spawns it once per event.
//!
//! Builds `hook` with the release profile, then times whole processes, alternating the two
//! sides of each pair in one run so that a busy machine slows both alike:
//!
//! - `hook run` with no matching hook vs `/bin/true`;
//! - `hook run` with one `exit 0` hook vs `/bin/sh -c 'exit 0'` fed the same stdin;
//! - `hook run` with 1,000 configured handlers (10 matching) vs the one-hook run, with the peak
//!   RSS of each (from `wait4`).
//!
//! - `hook run` with one `exit 0` hook, the journal on (the default) vs off (`HOOK_JOURNAL=off`):
//!   what recording each dispatch costs;
//! - `hook run` of a trusted project hook running a 10 KB and a 1 MB script (`exit 0` on its
//!   first line, so the shell reads a few KB either way) vs the same hook in the user's own
//!   file, which needs no trust: what hashing the files a hook runs costs each dispatch;
//! - `hook relay` (verboo) with no matching hook vs `/bin/true`, and with one `exit 0` hook vs
//!   `sh -c 'exit 0'`: the relay is on the hot path of every event of the agent that calls it;
//! - the floors: `/bin/sh` starting one `sh -c 'exit 0'` vs `sh -c 'exit 0'`, and starting 10
//!   of them at once vs one. A shell is the thinnest wrapper there is, so these ratios are the
//!   least any program that starts hooks could reach; against the first, `hook relay` and
//!   `hook run` with one `exit 0` hook, and the entry `hook relay install` writes run as the
//!   agent runs it (`sh -c ENTRY`) vs the same entry with dash in the relay's place.
//!
//! Prints the medians and their ratios; BENCHMARKS.md records a run.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

/// Runs of each side of a pair.
const RUNS: usize = 200;

/// One process to time: program, arguments, stdin.
struct Job {
    program: PathBuf,
    args: Vec<String>,
    stdin: Vec<u8>,
    env: Vec<(String, String)>,
}

impl Job {
    fn new(program: impl Into<PathBuf>, args: &[&str], stdin: &[u8]) -> Job {
        Job {
            program: program.into(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            stdin: stdin.to_vec(),
            env: Vec::new(),
        }
    }

    /// This job with `name=value` in its environment.
    fn with_env(mut self, name: &str, value: &str) -> Job {
        self.env.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Wall time and peak RSS (KiB) of one run; fails on a non-zero exit.
    fn run_once(&self) -> Result<(Duration, i64)> {
        let started = Instant::now();
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", self.program.display()))?;
        if let Some(mut stdin) = child.stdin.take() {
            // A program that does not read its stdin may close it first: that is fine.
            let _ = stdin.write_all(&self.stdin);
        }
        let (status, rss) = wait_with_rss(child.id())?;
        let took = started.elapsed();
        if status != 0 {
            bail!("{} exited with status {status}", self.program.display());
        }
        Ok((took, rss))
    }
}

/// `wait4` on `pid`: its wait status and peak RSS in KiB.
fn wait_with_rss(pid: u32) -> Result<(i32, i64)> {
    let pid = libc::pid_t::try_from(pid).context("pid out of range")?;
    let mut status = 0;
    // SAFETY: `rusage` is plain old data, zeroed before the call; wait4 fills it and `status`
    // for our own child, whose handle (`Child`) is never waited on again.
    #[allow(unsafe_code)]
    let (waited, usage) = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        let waited = libc::wait4(pid, &mut status, 0, &mut usage);
        (waited, usage)
    };
    if waited != pid {
        bail!("wait4 failed: {}", std::io::Error::last_os_error());
    }
    Ok((status, usage.ru_maxrss))
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// Times `a` and `b`, alternating, `RUNS` times each: medians and the largest RSS of each.
fn pair(a: &Job, b: &Job) -> Result<((Duration, i64), (Duration, i64))> {
    pair_of(a, b, RUNS)
}

/// [`pair`] with `runs` runs of each side.
fn pair_of(a: &Job, b: &Job, runs: usize) -> Result<((Duration, i64), (Duration, i64))> {
    // Warm the page cache and the binaries first.
    for _ in 0..10 {
        a.run_once()?;
        b.run_once()?;
    }
    let (mut ta, mut tb) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    let (mut ra, mut rb) = (0, 0);
    for _ in 0..runs {
        let (t, r) = a.run_once()?;
        ta.push(t);
        ra = ra.max(r);
        let (t, r) = b.run_once()?;
        tb.push(t);
        rb = rb.max(r);
    }
    Ok(((median(ta), ra), (median(tb), rb)))
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1000.0)
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

/// A verboo home whose user settings hold `groups` PreToolUse groups; the first `matching` of
/// them match `Bash` and run `exit 0`.
fn home_with(dir: &Path, name: &str, groups: usize, matching: usize) -> Result<PathBuf> {
    let home = dir.join(name);
    fs::create_dir_all(&home)?;
    let groups: Vec<serde_json::Value> = (0..groups)
        .map(|i| {
            let matcher = if i < matching {
                "Bash".to_owned()
            } else {
                format!("Tool{i}")
            };
            serde_json::json!({"matcher": matcher,
                "hooks": [{"type": "command", "command": format!("exit 0 # {i}")}]})
        })
        .collect();
    let settings = serde_json::json!({"hooks": {"PreToolUse": groups}});
    fs::write(home.join("settings.json"), settings.to_string())?;
    Ok(home)
}

/// A verboo relay home (`DIR/NAME`) whose relay file runs `command` as the one `PreToolUse`
/// hook on `Bash`.
fn relay_home_running(dir: &Path, name: &str, command: &str) -> Result<PathBuf> {
    let home = dir.join(name);
    fs::create_dir_all(home.join("hook-relay"))?;
    let settings = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": command}]}]}});
    fs::write(home.join("hook-relay/settings.json"), settings.to_string())?;
    Ok(home)
}

/// Builds the release `hook` (what users install) and returns its path.
pub(crate) fn release_hook(root: &Path) -> Result<PathBuf> {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "-p", "hook-cli", "--bin", "hook"])
        .current_dir(root)
        .status()?;
    if !status.success() {
        bail!("cargo build --release failed");
    }
    Ok(root.join("target/release/hook"))
}

/// Whether `hook ARGS`, which gave `out`, succeeded; else an error with what it said.
pub(crate) fn succeeded(out: &std::process::Output, args: &[&str]) -> Result<()> {
    if !out.status.success() {
        bail!(
            "hook {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// `hook SUBCOMMAND` (`run` or `relay`) on a verboo `PreToolUse` event (`stdin`) with the hooks
/// of `home` and `project`.
fn hook_job(hook: &Path, subcommand: &str, home: &Path, project: &Path, stdin: &[u8]) -> Job {
    let (home, project) = (home.display().to_string(), project.display().to_string());
    Job::new(
        hook,
        &[
            subcommand,
            "--dialect",
            "verboo",
            "--event",
            "PreToolUse",
            "--home",
            &home,
            "--project",
            &project,
        ],
        stdin,
    )
}

/// The `PreToolUse` entry `hook relay install --agent claude` writes, in a home of its own
/// (`HOME`) whose relay file runs one `exit 0` hook on `Bash`.
struct InstalledEntry {
    command: String,
    home: String,
}

/// Installs the relay for Claude Code in `dir/entry-home` (as `HOME`) and reads back the
/// command of the entry it wrote for `PreToolUse`.
fn installed_entry(hook: &Path, dir: &Path, project: &Path) -> Result<InstalledEntry> {
    let home = tempfile::tempdir_in(dir)?.keep();
    relay_home_running(&home, ".claude", "exit 0")?;
    let out = Command::new(hook)
        .args(["relay", "install", "--agent", "claude"])
        .env("HOME", &home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .current_dir(project)
        .output()?;
    succeeded(&out, &["relay", "install", "--agent", "claude"])?;
    let settings: serde_json::Value =
        serde_json::from_slice(&fs::read(home.join(".claude/settings.json"))?)?;
    let command = settings
        .pointer("/hooks/PreToolUse/0/hooks/0/command")
        .and_then(serde_json::Value::as_str)
        .context("hook relay install wrote no PreToolUse entry")?;
    Ok(InstalledEntry {
        command: command.to_owned(),
        home: home.display().to_string(),
    })
}

pub(crate) fn cli(root: &Path, baseline: Option<&Path>) -> Result<()> {
    let hook = release_hook(root)?;
    let size = fs::metadata(&hook)?.len();
    let work = tempfile::tempdir()?;
    let dir = work.path();
    let project = dir.join("project");
    fs::create_dir_all(&project)?;
    let event = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "cwd": project, "tool_name": "Bash", "tool_input": {"command": "ls"},
        "tool_use_id": "t", "transcript_path": "/t.jsonl"});
    let stdin = event.to_string().into_bytes();
    let run = |home: &Path| hook_job(&hook, "run", home, &project, &stdin);
    let none = home_with(dir, "none", 1, 0)?;
    let one = home_with(dir, "one", 1, 1)?;
    let many = home_with(dir, "many", 1000, 10)?;

    println!(
        "hook binary: {} ({:.1} MB)",
        // Relative to the repository, so a pasted figure names no machine's path.
        hook.strip_prefix(root).unwrap_or(&hook).display(),
        size as f64 / 1e6
    );
    let ((hook_none, _), (truth, _)) = pair(&run(&none), &Job::new("/bin/true", &[], b""))?;
    println!(
        "hook run, no matching hook {} vs /bin/true {}: ratio {:.2}",
        ms(hook_none),
        ms(truth),
        ratio(hook_none, truth)
    );
    let ((hook_one, rss_one), (sh, _)) =
        pair(&run(&one), &Job::new("/bin/sh", &["-c", "exit 0"], &stdin))?;
    println!(
        "hook run, one exit-0 hook {} vs sh -c 'exit 0' {}: ratio {:.2}",
        ms(hook_one),
        ms(sh),
        ratio(hook_one, sh)
    );
    let ((hook_many, rss_many), (hook_one_again, _)) = pair(&run(&many), &run(&one))?;
    println!(
        "hook run, 1000 handlers (10 matching) {} vs one hook {}: ratio {:.2}; peak RSS {:.1} MiB (one hook: {:.1} MiB)",
        ms(hook_many),
        ms(hook_one_again),
        ratio(hook_many, hook_one_again),
        rss_many as f64 / 1024.0,
        rss_one as f64 / 1024.0
    );

    // The journal: one line per dispatch, appended to <home>/hook-journal/journal.jsonl. Its
    // cost (tens of microseconds) is within one run's noise: five times the runs.
    let ((journal_on, _), (journal_off, _)) = pair_of(
        &run(&one).with_env("HOOK_JOURNAL", "on"),
        &run(&one).with_env("HOOK_JOURNAL", "off"),
        5 * RUNS,
    )?;
    println!(
        "hook run, one exit-0 hook, journal on {} vs off {}: ratio {:.3}",
        ms(journal_on),
        ms(journal_off),
        ratio(journal_on, journal_off)
    );

    // Trust covers the files a hook runs: a project hook (needs trust, its script hashed on
    // every dispatch) vs the same hook from the user's file (trusted as written, not hashed).
    for (label, size) in [("10 KB", 10 * 1024), ("1 MB", 1024 * 1024)] {
        let tag = label.replace(' ', "");
        let scripted = dir.join(format!("scripted-{tag}"));
        let script = scripted.join(".hooks/check.sh");
        fs::create_dir_all(script.parent().context("a script's folder")?)?;
        let mut text = String::from("exit 0\n");
        while text.len() < size {
            text.push_str("# a line of the script that the shell never reaches, only hashed\n");
        }
        fs::write(&script, text)?;
        let settings = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "sh .hooks/check.sh"}]}]}})
        .to_string();
        fs::create_dir_all(scripted.join(".claude"))?;
        fs::write(scripted.join(".claude/settings.json"), &settings)?;
        let trusting_home = dir.join(format!("trusting-{tag}"));
        fs::create_dir_all(&trusting_home)?;
        let user_home = dir.join(format!("user-{tag}"));
        fs::create_dir_all(&user_home)?;
        fs::write(user_home.join("settings.json"), &settings)?;
        let user_project = dir.join(format!("user-project-{tag}"));
        fs::create_dir_all(user_project.join(".hooks"))?;
        fs::copy(&script, user_project.join(".hooks/check.sh"))?;
        let trusted = Command::new(&hook)
            .args(["trust", "--dialect", "verboo", "--all", "--home"])
            .arg(&trusting_home)
            .arg("--project")
            .arg(&scripted)
            .output()?;
        if !trusted.status.success() {
            bail!("hook trust: {}", String::from_utf8_lossy(&trusted.stderr));
        }
        let job = |home: &Path, project: &Path| -> Job {
            let event = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
                "cwd": project, "tool_name": "Bash", "tool_input": {"command": "ls"},
                "tool_use_id": "t", "transcript_path": "/t.jsonl"});
            hook_job(&hook, "run", home, project, event.to_string().as_bytes())
                .with_env("HOOK_JOURNAL", "off")
        };
        // A script is remembered by its digest only once it has not changed for 2 s (the
        // trust's digest cache, for files of 256 KiB or more): as in a project, where a hook's
        // script is not edited in the seconds before it runs.
        std::thread::sleep(std::time::Duration::from_secs(3));
        let ((hashed, _), (unhashed, _)) = pair(
            &job(&trusting_home, &scripted),
            &job(&user_home, &user_project),
        )?;
        println!(
            "hook run, trusted project hook running a {label} script {} vs the same hook needing no trust {}: ratio {:.3}",
            ms(hashed),
            ms(unhashed),
            ratio(hashed, unhashed)
        );
    }

    // `hook relay`: the same hooks from the relay's own file, answered in Claude Code's format.
    let relay_home = |name: &str, source: &Path| -> Result<PathBuf> {
        let home = dir.join(name);
        fs::create_dir_all(home.join("hook-relay"))?;
        fs::copy(
            source.join("settings.json"),
            home.join("hook-relay/settings.json"),
        )?;
        Ok(home)
    };
    let relay = |home: &Path| hook_job(&hook, "relay", home, &project, &stdin);
    let relay_none = relay_home("relay-none", &none)?;
    let relay_one = relay_home("relay-one", &one)?;
    let ((relayed_none, _), (truth, _)) =
        pair(&relay(&relay_none), &Job::new("/bin/true", &[], b""))?;
    println!(
        "hook relay, no matching hook {} vs /bin/true {}: ratio {:.2}",
        ms(relayed_none),
        ms(truth),
        ratio(relayed_none, truth)
    );
    let ((relayed_one, _), (sh, _)) = pair(
        &relay(&relay_one),
        &Job::new("/bin/sh", &["-c", "exit 0"], &stdin),
    )?;
    println!(
        "hook relay, one exit-0 hook {} vs sh -c 'exit 0' {}: ratio {:.2}",
        ms(relayed_one),
        ms(sh),
        ratio(relayed_one, sh)
    );

    // The floor of any wrapper: the thinnest program that starts hooks is a shell. Its ratios
    // are the least the cases above could reach, whatever the engine did.
    println!("floors (dash as the wrapper, same stdin):");
    let sh = |script: &str| Job::new("/bin/sh", &["-c", script], &stdin);
    let ((wrap_one, _), (bare, _)) = pair(&sh("/bin/sh -c 'exit 0' </dev/null"), &sh("exit 0"))?;
    println!(
        "  sh starting one sh -c 'exit 0' {} vs sh -c 'exit 0' {}: ratio {:.2}",
        ms(wrap_one),
        ms(bare),
        ratio(wrap_one, bare)
    );
    let scene = EventPath {
        dir,
        project: &project,
        stdin: &stdin,
        relay_home: &relay_one,
        run_home: &one,
    };
    event_path(&hook, "", &scene)?;
    if let Some(baseline) = baseline {
        // The same lines for another build (an earlier commit's), in this run.
        event_path(baseline, "baseline: ", &scene)?;
    }
    let ten = "for i in 1 2 3 4 5 6 7 8 9 10; do /bin/sh -c 'exit 0' </dev/null & done; wait";
    let ((wrap_ten, _), (wrap_one_again, _)) =
        pair(&sh(ten), &sh("/bin/sh -c 'exit 0' </dev/null"))?;
    println!(
        "  sh starting 10 hooks at once {} vs one {}: ratio {:.2}",
        ms(wrap_ten),
        ms(wrap_one_again),
        ratio(wrap_ten, wrap_one_again)
    );
    Ok(())
}

/// Where the event-path lines run: the scratch folder, the project, the event, and the homes
/// of the relay and `hook run` with one `exit 0` hook.
struct EventPath<'a> {
    dir: &'a Path,
    project: &'a Path,
    stdin: &'a [u8],
    relay_home: &'a Path,
    run_home: &'a Path,
}

/// What an agent pays per event for `hook` against dash as the wrapper (the floor): `hook
/// relay` and `hook run` starting one `exit 0` hook vs `sh` starting it, and the entry `hook
/// relay install` writes, run as the agent runs it (`sh -c ENTRY`: the agent's shell, the
/// relay, the hook's shell), vs the same entry with the relay replaced by dash starting the
/// hook (`sh -c 'sh -c "exit 0"' || exit 2`). Each line starts with `label`.
fn event_path(hook: &Path, label: &str, scene: &EventPath<'_>) -> Result<()> {
    let sh = |script: &str| Job::new("/bin/sh", &["-c", script], scene.stdin);
    let wrapper = "/bin/sh -c 'exit 0' </dev/null";
    let command = |subcommand: &str, home: &Path| {
        hook_job(hook, subcommand, home, scene.project, scene.stdin)
    };
    let ((relayed, _), (wrapped, _)) = pair(&command("relay", scene.relay_home), &sh(wrapper))?;
    println!(
        "  {label}hook relay, one exit-0 hook {} vs sh starting one sh -c 'exit 0' {}: ratio {:.2}",
        ms(relayed),
        ms(wrapped),
        ratio(relayed, wrapped)
    );
    let ((ran, _), (wrapped, _)) = pair(&command("run", scene.run_home), &sh(wrapper))?;
    println!(
        "  {label}hook run, one exit-0 hook {} vs sh starting one sh -c 'exit 0' {}: ratio {:.2}",
        ms(ran),
        ms(wrapped),
        ratio(ran, wrapped)
    );
    let entry = installed_entry(hook, scene.dir, scene.project)?;
    let ((through_entry, _), (dash_entry, _)) = pair(
        &Job::new("/bin/sh", &["-c", &entry.command], scene.stdin).with_env("HOME", &entry.home),
        &sh(r#"sh -c 'sh -c "exit 0"' || exit 2"#),
    )?;
    println!(
        "  {label}the installed entry (sh -c ENTRY, one exit-0 relay hook) {} vs the entry with dash in the relay's place {}: ratio {:.2}",
        ms(through_entry),
        ms(dash_entry),
        ratio(through_entry, dash_entry)
    );
    Ok(())
}

/// `cargo xtask bench launcher`: what a relayed event costs through what npm installs.
///
/// The release build's packages (`cargo xtask dist`'s code), installed offline twice into
/// scratch prefixes: as people install them (install scripts on: the postinstall puts the
/// native binary over the package's `bin/hook`), and with `--ignore-scripts` (`bin/hook` stays
/// the Node launcher). Each pair alternates, [`RUNS`] runs each, medians:
///
/// - a project's entry as `hook relay install --project` writes it (bare `hook`, found through
///   `PATH`), run as the agent runs it (`sh -c ENTRY`, the prefix's `bin/` first on `PATH`,
///   the relay hook one trusted `exit 0`), vs the same entry naming the native path a user's
///   entry names: what going through `PATH` costs once the postinstall ran (the goal: ≤ 1.1);
/// - `hook relay` started through the launcher (scripts off) vs the platform package's binary:
///   what a start through Node costs.
pub(crate) fn launcher(root: &Path) -> Result<()> {
    use crate::dist::pack;
    let hook = release_hook(root)?;
    let work = tempfile::tempdir()?;
    let dir = work.path();
    let platform = pack::platform(crate::dist::host_target()?)?;
    let man = crate::dist::docs::man_pages(&hook)?;
    let meta = pack::Meta {
        version: env!("CARGO_PKG_VERSION"),
        root,
        man: &man,
    };
    let written = pack::write_all(
        &meta,
        platform,
        &hook,
        &dir.join("dist"),
        pack::Compression::Best,
    )?;
    let tarballs = [written.npm_main.as_path(), written.npm_platform.as_path()];
    let scripts_on = npm_install_offline(dir, "scripts-on", &tarballs, &[])?;
    let scripts_off = npm_install_offline(dir, "scripts-off", &tarballs, &["--ignore-scripts"])?;
    let native = scripts_on.join("bin/hook").canonicalize()?;
    if !fs::read(&native)?.starts_with(b"\x7fELF") {
        bail!(
            "{} is not the native binary: the postinstall did not put it in place (run `npm install -g --foreground-scripts` on the packages to see why)",
            native.display()
        );
    }

    // A project whose relay file runs one `exit 0` hook, trusted, and its entries installed
    // by the installed `hook`, with the prefix's `bin/` first on PATH.
    let project = dir.join("project");
    let home = dir.join("home");
    fs::create_dir_all(project.join(".claude/hook-relay"))?;
    fs::create_dir_all(&home)?;
    let settings = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": "exit 0"}]}]}});
    fs::write(
        project.join(".claude/hook-relay/settings.json"),
        settings.to_string(),
    )?;
    let path = std::env::join_paths(std::iter::once(scripts_on.join("bin")).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))?;
    let path = path.to_str().context("PATH is not UTF-8")?;
    for args in [
        &[
            "trust",
            "--dialect",
            "verboo",
            "--project",
            ".",
            "--relay",
            "--all",
        ][..],
        &["relay", "install", "--agent", "claude", "--project", "."],
    ] {
        let out = Command::new(&native)
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .env("PATH", path)
            .env_remove("CLAUDE_CONFIG_DIR")
            .output()?;
        succeeded(&out, args)?;
    }
    let written: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(project.join(".claude/settings.json"))?)?;
    let entry = written["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .context("no PreToolUse entry in the project's settings")?;
    let through_path = entry.to_owned();
    let Some(rest) = entry.strip_prefix("hook ") else {
        bail!("the project's entry does not start `hook` through PATH: {entry}");
    };
    let native_entry = format!("{} {rest}", native.display());
    let event = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "cwd": project, "tool_name": "Bash", "tool_input": {"command": "ls"},
        "tool_use_id": "t", "transcript_path": "/t.jsonl", "permission_mode": "default"});
    let stdin = event.to_string().into_bytes();
    let project_dir = project.display().to_string();
    let home_dir = home.display().to_string();
    let agent = |entry: &str| {
        Job::new("/bin/sh", &["-c", entry], &stdin)
            .with_env("PATH", path)
            .with_env("HOME", &home_dir)
            .with_env("CLAUDE_PROJECT_DIR", &project_dir)
    };
    // The hook runs (trusted, reached): once, its answer read, before the timing. An untrusted
    // or unreached relay hook would be said in a `systemMessage` on stdout.
    let event_file = dir.join("event.json");
    fs::write(&event_file, &stdin)?;
    let out = Command::new("/bin/sh")
        .args(["-c", &through_path])
        .env("PATH", path)
        .env("HOME", &home)
        .env("CLAUDE_PROJECT_DIR", &project)
        .stdin(fs::File::open(&event_file)?)
        .output()?;
    if !out.status.success() || !out.stdout.is_empty() {
        bail!(
            "the project's entry did not run its one exit-0 hook quietly: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let ((through, _), (direct, _)) = pair(&agent(&through_path), &agent(&native_entry))?;
    println!(
        "hook relay, one exit-0 hook: a project entry through PATH (npm install, scripts on) {} vs the native path {}: ratio {:.2}",
        ms(through),
        ms(direct),
        ratio(through, direct)
    );

    // With scripts off: `hook` is the launcher, which starts the platform package's binary.
    let launcher = scripts_off.join("bin/hook");
    let binary = scripts_off
        .join("lib/node_modules")
        .join(platform.npm_package())
        .join("bin/hook");
    let home = relay_home_running(dir, "user-home", "exit 0")?;
    let home = home.display().to_string();
    let args = [
        "relay",
        "--dialect",
        "verboo",
        "--event",
        "PreToolUse",
        "--home",
        home.as_str(),
    ];
    // Times only: a child's peak RSS from `wait4` counts the memory it shared with this process
    // until `exec`, and this process holds the binary it just packaged.
    let ((through, _), (direct, _)) = pair(
        &Job::new(&launcher, &args, &stdin),
        &Job::new(&binary, &args, &stdin),
    )?;
    println!(
        "hook relay, one exit-0 hook: through the npm launcher (npm install --ignore-scripts) {} vs the entry's path (the native binary) {}: ratio {:.2}, the launcher adds {}",
        ms(through),
        ms(direct),
        ratio(through, direct),
        ms(through.saturating_sub(direct))
    );
    Ok(())
}

/// `npm install -g --offline TARBALLS EXTRA` into `DIR/NAME` (npm's cache in `DIR` too): the
/// prefix.
fn npm_install_offline(
    dir: &Path,
    name: &str,
    tarballs: &[&Path],
    extra: &[&str],
) -> Result<PathBuf> {
    let prefix = dir.join(name);
    let status = Command::new("npm")
        .args([
            "install",
            "-g",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--prefix",
        ])
        .arg(&prefix)
        .arg("--cache")
        .arg(dir.join("npm-cache"))
        .args(extra)
        .args(tarballs)
        .status()
        .context("running npm install (is npm installed?)")?;
    if !status.success() {
        bail!("npm install of the packages failed");
    }
    Ok(prefix)
}

/// The same guard as a shell script, as users write it: the command picked out of the event
/// with `jq`, matched with `grep -E`, the deny written by hand (three processes: sh, jq, grep).
const SCRIPT_GUARD: &str = r#"command=$(jq -r '.tool_input.command // empty')
if printf '%s\n' "$command" | grep -Eq '(^|[;&|[:space:]])(sudo[[:space:]]+)?(/bin/)?rm[[:space:]]+-[a-zA-Z]*[rR][a-zA-Z]*[[:space:]]+(/|~)'; then
  echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"recursive delete of / or ~"}}'
fi
"#;

/// `cargo xtask bench guards`: a built-in guard's cost per event against the same guard as a
/// shell script (`SCRIPT_GUARD`), each alone as the process an agent would start, and each as
/// the one hook of the relay (where the built-in runs in the relay's process).
pub(crate) fn guards(root: &Path) -> Result<()> {
    let hook = release_hook(root)?;
    let work = tempfile::tempdir()?;
    let dir = work.path();
    let project = dir.join("project");
    fs::create_dir_all(&project)?;
    let script = dir.join("guard.sh");
    fs::write(&script, SCRIPT_GUARD)?;
    let script_entry = format!("sh {}", script.display());
    let builtin_entry = format!("{} guard run dangerous-commands", hook.display());
    let event = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "cwd": project, "tool_name": "Bash",
        "tool_input": {"command": "cargo test --workspace && git status --short"},
        "tool_use_id": "t", "transcript_path": "/t.jsonl", "permission_mode": "default"});
    let stdin = event.to_string().into_bytes();

    let ((alone_builtin, _), (alone_script, _)) = pair(
        &Job::new(&hook, &["guard", "run", "dangerous-commands"], &stdin)
            .with_env("HOOK_DIALECT", "verboo"),
        &Job::new("/bin/sh", &[&script.display().to_string()], &stdin),
    )?;
    println!(
        "a guard as the agent's hook process, per event: hook guard run dangerous-commands {} vs the shell-script guard (sh + jq + grep) {}: ratio {:.2}",
        ms(alone_builtin),
        ms(alone_script),
        ratio(alone_builtin, alone_script)
    );

    let builtin_home = relay_home_running(dir, "builtin", &builtin_entry)?
        .display()
        .to_string();
    let script_home = relay_home_running(dir, "script", &script_entry)?
        .display()
        .to_string();
    let relay = |home: &str| {
        Job::new(
            &hook,
            &[
                "relay",
                "--dialect",
                "verboo",
                "--event",
                "PreToolUse",
                "--home",
                home,
            ],
            &stdin,
        )
        .with_env("HOOK_JOURNAL", "off")
    };
    let ((relay_builtin, _), (relay_script, _)) =
        pair(&relay(&builtin_home), &relay(&script_home))?;
    println!(
        "the guard as the relay's one hook, per event: built-in (in the relay's process) {} vs the shell-script guard {}: ratio {:.2}",
        ms(relay_builtin),
        ms(relay_script),
        ratio(relay_builtin, relay_script)
    );
    Ok(())
}

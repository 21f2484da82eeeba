//! The real agents: which releases run (`Versions`), installing them with npm, and running one
//! case's turn through Codex CLI or Claude Code (`run_agent`), with the control requests and
//! the user's answers a case needs.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use super::cases;
use super::cases::{Case, Hook, Permissions, Trigger};
use super::setup::{
    Side, json_config, relay_entry, toml_config, write_claude_settings, write_relay_files,
};
use super::{Agent, Env};

/// The npm packages of the agents.
pub(super) const CODEX_PACKAGE: &str = "@openai/codex";

pub(super) const CLAUDE_PACKAGE: &str = "@anthropic-ai/claude-code";

/// The release of each agent a run is measured against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Versions {
    pub(crate) claude: String,
    pub(crate) codex: String,
}

impl Versions {
    /// The oldest releases the engine is still checked against (`--floor`): the ones every
    /// figure was measured on before Claude Code 2.1.332 and Codex 0.171.
    pub(crate) fn floor() -> Versions {
        Versions {
            claude: "2.1.197".to_owned(),
            codex: "0.169.1".to_owned(),
        }
    }

    /// The newest release of each on the npm registry (`npm view PACKAGE version`).
    pub(crate) fn newest() -> Result<Versions> {
        Ok(Versions {
            claude: newest_release(CLAUDE_PACKAGE)?,
            codex: newest_release(CODEX_PACKAGE)?,
        })
    }

    /// `--floor` or the newest releases.
    pub(crate) fn chosen(floor: bool) -> Result<Versions> {
        if floor {
            Ok(Versions::floor())
        } else {
            Versions::newest()
        }
    }

    /// The npm prefix these releases are installed under (one per pair, kept between runs).
    pub(crate) fn npm_dir(&self, work: &Path) -> PathBuf {
        work.join("npm")
            .join(format!("claude-{}-codex-{}", self.claude, self.codex))
    }

    /// The packages, pinned: (npm spec, package folder, exact version).
    fn packages(&self) -> [Package<'_>; 2] {
        [
            (
                format!("{CODEX_PACKAGE}@{}", self.codex),
                CODEX_PACKAGE,
                self.codex.as_str(),
            ),
            (
                format!("{CLAUDE_PACKAGE}@{}", self.claude),
                CLAUDE_PACKAGE,
                self.claude.as_str(),
            ),
        ]
    }
}

/// Codex model metadata for the fake model with the freeform `apply_patch` tool (the fields
/// Codex 0.169 requires in `model_catalog_json`).
pub(super) const PATCH_MODEL_CATALOG: &str = r#"{"models":[{"slug":"gpt-5.1-codex","display_name":"gpt-5.1-codex",
"description":"fake","apply_patch_tool_type":"freeform","shell_type":"shell_command",
"supports_reasoning_summaries":false,"support_verbosity":false,"default_verbosity":null,
"input_modalities":["text"],"truncation_policy":{"mode":"tokens","limit":10000},
"supports_parallel_tool_calls":false,"context_window":272000,"reasoning_summary_format":"none",
"default_reasoning_level":"medium","supported_reasoning_levels":[{"effort":"medium","description":"m"}],
"visibility":"list","minimal_client_version":"0.0.1","supported_in_api":true,"upgrade":null,
"priority":0,"base_instructions":"You are a fake model.","experimental_supported_tools":[]}]}"#;

/// How long one agent run may take before it is killed.
pub(super) const AGENT_DEADLINE: Duration = Duration::from_secs(90);

/// Whether release `version` is older than `than` (dotted numbers, compared numerically).
pub(super) fn older(version: &str, than: &str) -> bool {
    let parts = |v: &str| -> Vec<u64> { v.split('.').map(|p| p.parse().unwrap_or(0)).collect() };
    parts(version) < parts(than)
}

/// Codex's `config.toml` for the fake model server on `port`, then `rest` (hooks and such).
pub(crate) fn codex_config(port: u16, approval: &str, sandbox: &str, rest: &str) -> String {
    format!(
        "model = \"gpt-5.1-codex\"\nmodel_provider = \"fake\"\napproval_policy = \"{approval}\"\n\
         sandbox_mode = \"{sandbox}\"\n\n[model_providers.fake]\nname = \"fake\"\n\
         base_url = \"http://127.0.0.1:{port}/v1\"\nwire_api = \"responses\"\n\
         request_max_retries = 0\nstream_max_retries = 0\n{rest}"
    )
}

/// `claude -p` (stream-json output) against the fake model server on `port`, with nothing
/// sent elsewhere; `bin` is the npm `.bin` folder.
pub(crate) fn claude_command(bin: &Path, port: u16) -> Command {
    let mut command = Command::new(bin.join("claude"));
    command
        .args(["-p", "--output-format", "stream-json", "--verbose"])
        .args(["--model", "claude-sonnet-4-5"])
        .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}"))
        .env("ANTHROPIC_API_KEY", "sk-ant-fake")
        .env("IS_SANDBOX", "1")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("DISABLE_ERROR_REPORTING", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    command
}

/// The newest release of `package` on the npm registry (`npm view PACKAGE version`).
pub(super) fn newest_release(package: &str) -> Result<String> {
    let out = Command::new("npm")
        .args(["view", package, "version"])
        .output()
        .context("running npm view (is Node.js installed?)")?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if !out.status.success() || version.is_empty() {
        bail!(
            "npm view {package} version failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(version)
}

/// One npm package, pinned: (npm spec, package folder, exact version).
pub(super) type Package<'a> = (String, &'static str, &'a str);

/// Installs the agents of `versions` unless the cache already has them.
pub(crate) fn install(npm: &Path, versions: &Versions) -> Result<()> {
    install_packages(npm, &versions.packages())
}

/// Installs `packages` with npm under the prefix `npm` unless it already has each at its
/// version.
pub(super) fn install_packages(npm: &Path, packages: &[Package<'_>]) -> Result<()> {
    let current = packages.iter().all(|(_, folder, version)| {
        let manifest = npm.join("node_modules").join(folder).join("package.json");
        fs::read_to_string(manifest)
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .is_some_and(|m| m["version"].as_str() == Some(*version))
    });
    if current {
        return Ok(());
    }
    fs::create_dir_all(npm)?;
    let specs: Vec<&str> = packages.iter().map(|p| p.0.as_str()).collect();
    println!(
        "installing {} with npm into {}",
        specs.join(" "),
        npm.display()
    );
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(npm)
        .args(&specs)
        .status()
        .context("running npm (is Node.js installed?)")?;
    if !status.success() {
        bail!("npm install failed: check the registry is reachable");
    }
    Ok(())
}

pub(super) fn run_agent(
    env: &Env,
    case: &Case,
    side: &Side,
    hooks: &[Hook],
    commands: &[String],
    port: u16,
    turn: usize,
) -> Result<String> {
    // The second turn resumes the session of the first with another prompt.
    let prompt = if case.trigger == Trigger::SkillCommand {
        "/x"
    } else if turn == 0 {
        "Run the command."
    } else {
        "Go on."
    };
    let (stdout_name, stderr_name) = if turn == 0 {
        ("stdout", "stderr")
    } else {
        ("stdout-turn2", "stderr-turn2")
    };
    let home = side.dir.join("home");
    let project = side.dir.join("project");
    // SDK control requests sent before the prompt (stream-json input), if the case has any.
    let controls = control_requests(case, &project);
    let bin = env.npm.join("node_modules/.bin");
    let mut command = match env.agent {
        Agent::Codex => {
            let codex_home = home.join(".codex");
            fs::create_dir_all(&codex_home)?;
            let (approval, sandbox) = match case.permissions {
                Permissions::Bypass => ("never".to_owned(), "danger-full-access"),
                Permissions::Prompt => ("on-request".to_owned(), "workspace-write"),
            };
            // Codex offers `apply_patch` only to a model whose metadata says so, and knows no
            // metadata for the fake model: a one-model catalog gives it.
            let catalog = if case.patch {
                let path = codex_home.join("models.json");
                fs::write(&path, PATCH_MODEL_CATALOG)?;
                format!(
                    "model_catalog_json = {}\n",
                    Value::from(path.display().to_string())
                )
            } else {
                String::new()
            };
            let hooks_config = if env.relay {
                let relay_home = write_relay_files(env, case, side, hooks, commands)?;
                let (relay_hook, relay_command) = relay_entry(env, case, side, &relay_home);
                toml_config(case.event, &[relay_hook], &[relay_command])
            } else {
                toml_config(case.event, hooks, commands)
            };
            let config = codex_config(
                port,
                &approval,
                sandbox,
                &format!("{catalog}\n{hooks_config}"),
            );
            fs::write(codex_home.join("config.toml"), config)?;
            let mut command = Command::new(bin.join("codex"));
            if turn == 0 {
                command
                    .args([
                        "exec",
                        "--skip-git-repo-check",
                        "--dangerously-bypass-hook-trust",
                    ])
                    .arg("-C")
                    .arg(&project);
            } else {
                // The first turn's session, by the id Codex printed (`--last` skips a session
                // whose only prompt was blocked).
                let first = fs::read_to_string(side.dir.join("stderr")).unwrap_or_default();
                let id = first
                    .lines()
                    .find_map(|line| line.strip_prefix("session id: "))
                    .map(str::trim)
                    .context("the first turn printed no session id")?;
                command.args([
                    "exec",
                    "resume",
                    "--skip-git-repo-check",
                    "--dangerously-bypass-hook-trust",
                    id,
                ]);
            }
            command
                .arg(prompt)
                .env("CODEX_HOME", &codex_home)
                .env("OPENAI_API_KEY", "sk-fake");
            match case.permissions {
                Permissions::Bypass => {
                    command.arg("--dangerously-bypass-approvals-and-sandbox");
                }
                // `codex exec` forces approval `never` (an escalated call is refused without
                // asking, and no PermissionRequest hook runs) unless approvals go to the
                // automatic reviewer: then the hooks are asked first, and a call they leave
                // undecided goes to the reviewer, which the fake model makes decline.
                Permissions::Prompt => {
                    command.arg("--approve-for-me");
                }
            }
            command
        }
        Agent::Claude => {
            if env.relay {
                let relay_home = write_relay_files(env, case, side, hooks, commands)?;
                let (relay_hook, relay_command) = relay_entry(env, case, side, &relay_home);
                let settings = json_config(case.event, &[relay_hook], &[relay_command]);
                let (dir, file) = if case.personal_settings {
                    (project.join(".claude"), "settings.local.json")
                } else {
                    (home.join(".claude"), "settings.json")
                };
                fs::create_dir_all(&dir)?;
                fs::write(dir.join(file), serde_json::to_string_pretty(&settings)?)?;
            } else {
                write_claude_settings(&home.join(".claude"), &project, case, hooks, commands)?;
            }
            if case.trigger == Trigger::SkillCommand {
                // The inline shell command of a project command, run when `/x` expands it.
                let commands_dir = project.join(".claude/commands");
                fs::create_dir_all(&commands_dir)?;
                let inline = case
                    .command
                    .replace("{MARKER}", &side.marker.display().to_string());
                fs::write(
                    commands_dir.join("x.md"),
                    format!("---\ndescription: x\n---\nSay done.\n\n!`{inline}`\n"),
                )?;
            }
            let mut command = claude_command(&bin, port);
            match case.permissions {
                // SDK control requests (`set_model`, `register_repo_root`) come on stream-json
                // stdin, before the prompt (`prompt_user`).
                Permissions::Bypass if !controls.is_empty() => {
                    // The debug log is where Claude Code says it refused a hook's output.
                    command
                        .args([
                            "--dangerously-skip-permissions",
                            "--input-format",
                            "stream-json",
                            "--debug-file",
                        ])
                        .arg(side.dir.join("debug.log"));
                }
                Permissions::Bypass => {
                    if turn > 0 {
                        // The most recent conversation of the project, under this case's HOME.
                        command.arg("--continue");
                    }
                    command.args(["--dangerously-skip-permissions", prompt]);
                }
                // Plain `-p` refuses a call that needs approval ("This command requires
                // approval") without running PermissionRequest hooks. With the stdio prompt
                // tool the hooks race the permission question sent to us as a control
                // request; `prompt_user` answers it late, so a hook's decision always wins.
                Permissions::Prompt => {
                    command.args([
                        "--input-format",
                        "stream-json",
                        "--permission-prompt-tool",
                        "stdio",
                    ]);
                }
            }
            command
        }
    };
    let prompted = env.agent == Agent::Claude
        && (case.permissions == Permissions::Prompt || !controls.is_empty());
    command
        .current_dir(&project)
        .env("HOME", &home)
        .env_remove("CLAUDECODE")
        .stderr(fs::File::create(side.dir.join(stderr_name))?);
    if prompted {
        command.stdin(Stdio::piped()).stdout(Stdio::piped());
    } else {
        command
            .stdin(Stdio::null())
            .stdout(fs::File::create(side.dir.join(stdout_name))?);
    }
    let mut child = command
        .spawn()
        .with_context(|| format!("starting {}", env.agent.name()))?;
    let user = if prompted {
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let log = fs::File::create(side.dir.join(stdout_name))?;
        Some(thread::spawn(move || {
            prompt_user(stdin, stdout, log, &controls)
        }))
    } else {
        None
    };
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status.to_string();
        }
        if started.elapsed() > AGENT_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            break "killed after the deadline".to_owned();
        }
        thread::sleep(Duration::from_millis(100));
    };
    if let Some(user) = user {
        let _ignored = user.join();
    }
    let stdout = fs::read_to_string(side.dir.join(stdout_name)).unwrap_or_default();
    let stderr = fs::read_to_string(side.dir.join(stderr_name)).unwrap_or_default();
    Ok(format!(
        "status: {status}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    ))
}

/// How long the harness, as the user, takes to answer a permission question: long enough that
/// every PermissionRequest hook of a case has answered first.
pub(super) const USER_DELAY: Duration = Duration::from_secs(3);

/// Plays the user of a Claude Code stream-json session: sends the prompt, copies every output
/// line to `log`, declines each permission question after `USER_DELAY`, and closes stdin once
/// the result arrives so the agent exits.
/// The SDK control requests a case sends before its prompt (stream-json input).
pub(super) fn control_requests(case: &Case, project: &Path) -> Vec<Value> {
    match case.trigger {
        Trigger::SetModel => vec![
            json!({"type": "control_request", "request_id": "set-model-1",
            "request": {"subtype": "set_model", "model": cases::SWITCH_TO}}),
        ],
        Trigger::AddDirectory => {
            // A strict subfolder of the session's working directory, as Claude Code requires.
            let folder = project.join("added");
            let _ignored = fs::create_dir_all(&folder);
            vec![json!({"type": "control_request", "request_id": "add-dir-1",
                "request": {"subtype": "register_repo_root", "directory": folder}})]
        }
        Trigger::ToolCall | Trigger::SkillCommand => Vec::new(),
    }
}

pub(super) fn prompt_user(
    stdin: std::process::ChildStdin,
    stdout: std::process::ChildStdout,
    mut log: fs::File,
    controls: &[Value],
) {
    use std::io::{BufRead as _, BufReader, Write as _};
    let stdin = std::sync::Arc::new(Mutex::new(Some(stdin)));
    let send = |stdin: &Mutex<Option<std::process::ChildStdin>>, message: &Value| {
        if let Ok(mut guard) = stdin.lock()
            && let Some(pipe) = guard.as_mut()
        {
            let _ignored = writeln!(pipe, "{message}").and_then(|()| pipe.flush());
        }
    };
    for control in controls {
        send(&stdin, control);
    }
    send(
        &stdin,
        &json!({"type": "user", "session_id": "", "parent_tool_use_id": null,
            "message": {"role": "user", "content": "Run the command."}}),
    );
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        let _ignored = writeln!(log, "{line}");
        let message: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        if message["type"] == "control_request" && message["request"]["subtype"] == "can_use_tool" {
            let id = message["request_id"].clone();
            let stdin = std::sync::Arc::clone(&stdin);
            thread::spawn(move || {
                thread::sleep(USER_DELAY);
                send(
                    &stdin,
                    &json!({"type": "control_response", "response": {"subtype": "success",
                        "request_id": id, "response": {"behavior": "deny",
                        "message": "declined by the user"}}}),
                );
            });
        } else if message["type"] == "result"
            && let Ok(mut guard) = stdin.lock()
        {
            guard.take();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::older;

    #[test]
    fn releases_compare_by_number() {
        assert!(older("2.1.197", "2.1.332"));
        assert!(older("2.1.99", "2.1.332"));
        assert!(!older("2.1.332", "2.1.332"));
        assert!(!older("2.10.0", "2.9.9"));
    }
}

//! `hook run` behaves as the real agents do (issue 11, part 2), in-process: one broken handler
//! never switches the others off, verboo's `CLAUDE_ENV_FILE`, async hooks that really run (and
//! `hook run` returns only once they are done), lime's `Edit`/`Write` aliases and plugin
//! variables.

use hook_test_support::Output;
use hook_test_support::Scene;

use serde_json::{Value, json};

/// What a scenario does in its kit [`Scene`] (home, project and its files).
trait Scenario {
    /// `hook ARGS --home H --project P`.
    fn hook(&self, args: &[&str]) -> Output;
    /// `hook run` of `event` with `input` (cwd and event name filled in); the outcome.
    fn run(&self, dialect: &str, event: &str, input: Value) -> (Value, String);
    /// Trusts every hook of `dialect`.
    fn trust_all(&self, dialect: &str);
}

impl Scenario for Scene {
    fn hook(&self, args: &[&str]) -> Output {
        let (home, project) = (self.path("home"), self.path("project"));
        let (home, project) = (home.display().to_string(), project.display().to_string());
        let mut all = args.to_vec();
        all.extend(["--home", &home, "--project", &project]);
        super::output(&all, "")
    }

    fn run(&self, dialect: &str, event: &str, mut input: Value) -> (Value, String) {
        input["hook_event_name"] = json!(event);
        input["cwd"] = json!(self.path("project"));
        self.write("event.json", &input.to_string());
        let event_file = self.path("event.json");
        let out = self.hook(&[
            "run",
            "--dialect",
            dialect,
            "--event",
            event,
            "--input",
            event_file.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        let outcome = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&out.stdout)));
        (outcome, stderr)
    }

    fn trust_all(&self, dialect: &str) {
        let out = self.hook(&["trust", "--dialect", dialect, "--all"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn statuses(outcome: &Value) -> Vec<String> {
    outcome["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| match run["skip_reason"].as_str() {
            Some(why) => format!("{}:{why}", run["status"].as_str().unwrap()),
            None => run["status"].as_str().unwrap().to_owned(),
        })
        .collect()
}

fn bash(command: &str) -> Value {
    json!({"session_id": "s", "tool_name": "Bash", "tool_input": {"command": command},
           "tool_use_id": "t1", "transcript_path": null})
}

const GUARD: &str = r#"case "$(cat)" in *'rm -rf /'*) echo 'no rm -rf /' >&2; exit 2;; esac"#;

#[test]
fn a_project_matcher_typo_does_not_stop_the_users_guard_from_blocking_rm_rf() {
    let scene = Scene::new();
    scene.write(
        "home/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": GUARD}]}]}})
        .to_string(),
    );
    // A committed project file with a typo: an unclosed `[` in its matcher.
    scene.write(
        "project/.claude/settings.json",
        "{\"hooks\": {\"PreToolUse\": [\n  {\"matcher\": \"[\", \"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}\n]}}",
    );
    let (outcome, stderr) = scene.run("verboo", "PreToolUse", bash("rm -rf /"));
    assert_eq!(outcome["decision"], "block", "{outcome}");
    assert_eq!(outcome["reason"], "no rm -rf /");
    assert_eq!(statuses(&outcome), ["blocked", "skipped:invalid"]);
    let project_file = scene.path("project/.claude/settings.json");
    let broken = &outcome["runs"][1];
    let error = broken["error"].as_str().unwrap();
    assert!(
        error.starts_with(&format!("{}:2:15: ", project_file.display())),
        "{error}"
    );
    assert!(error.contains("invalid regex in matcher `[`"), "{error}");
    assert_eq!(broken["source"]["layer"], "project");
    assert!(
        stderr.contains(":2:15: invalid regex in matcher `[`"),
        "{stderr}"
    );
}

#[test]
fn one_broken_handler_or_file_is_reported_on_its_events_and_everything_else_runs() {
    let scene = Scene::new();
    // verboo: a zero timeout breaks that handler only; an unreadable plugin is reported on
    // every event; the good handler after them runs.
    scene.write(
        "home/settings.json",
        &json!({"enabledPlugins": {"gone": true}, "hooks": {"PreToolUse": [
            {"hooks": [{"type": "command", "command": "echo never", "timeout": 0},
                       {"type": "command", "command": "touch ran"}]}],
            "Stop": [{"hooks": "not an array"}]}})
        .to_string(),
    );
    let (outcome, _) = scene.run("verboo", "PreToolUse", bash("ls"));
    assert_eq!(
        statuses(&outcome),
        ["ok", "skipped:invalid", "skipped:invalid"],
        "{outcome}"
    );
    assert!(scene.path("project/ran").exists());
    let errors: Vec<&str> = outcome["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["error"].as_str())
        .collect();
    assert!(
        errors[0].contains("timeout: expected a positive number"),
        "{errors:?}"
    );
    assert!(errors[1].contains("plugin `gone`"), "{errors:?}");
    // The broken Stop group is reported on Stop, not on PreToolUse.
    let (stop, _) = scene.run(
        "verboo",
        "Stop",
        json!({"session_id": "s", "stop_hook_active": false}),
    );
    assert_eq!(
        statuses(&stop),
        ["skipped:invalid", "skipped:invalid"],
        "{stop}"
    );
}

#[test]
fn lime_raises_a_zero_timeout_skips_a_blank_command_and_ignores_matchers_without_a_match_value() {
    let scene = Scene::new();
    scene.write(
        "home/config.toml",
        r#"
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "echo '{\"decision\":\"block\",\"reason\":\"zero timeout still runs\"}'"
timeout = 0
[[hooks.PreToolUse.hooks]]
type = "command"
command = "   "

[[hooks.UserPromptSubmit]]
matcher = "["
[[hooks.UserPromptSubmit.hooks]]
type = "command"
command = "echo prompt-context"
"#,
    );
    scene.trust_all("lime");
    let mut input = bash("ls");
    input["turn_id"] = json!("t");
    input["model"] = json!("m");
    input["permission_mode"] = json!("default");
    let (outcome, stderr) = scene.run("lime", "PreToolUse", input);
    assert_eq!(outcome["decision"], "block", "{outcome}");
    assert_eq!(outcome["reason"], "zero timeout still runs");
    assert_eq!(statuses(&outcome), ["blocked", "skipped:invalid"]);
    assert!(
        stderr.contains("timeout: 0 is not positive: 1 s applies"),
        "{stderr}"
    );
    assert!(stderr.contains("command is blank"), "{stderr}");

    let prompt = json!({"session_id": "s", "turn_id": "t", "model": "m", "prompt": "hi",
                        "transcript_path": null});
    let (outcome, stderr) = scene.run("lime", "UserPromptSubmit", prompt);
    assert_eq!(outcome["additional_context"], "prompt-context", "{outcome}");
    assert!(stderr.contains("matcher `[` is ignored"), "{stderr}");
}

#[test]
fn verboo_session_start_hooks_get_claude_env_file_and_the_outcome_reports_what_they_wrote() {
    let scene = Scene::new();
    // Anthropic's documented example: append exports to the file the agent will source.
    scene.write(
        "home/settings.json",
        &json!({"hooks": {"SessionStart": [{"hooks": [
            {"type": "command", "command": "echo 'export NODE_ENV=production' >> \"$CLAUDE_ENV_FILE\""},
            {"type": "command", "command": "if [ -n \"$CLAUDE_ENV_FILE\" ]; then echo 'export API=\"a b\"' >> \"$CLAUDE_ENV_FILE\"; fi; echo started"},
        ]}], "UserPromptSubmit": [{"hooks": [
            {"type": "command", "command": "echo \"${CLAUDE_ENV_FILE:-none}\""}]}]}})
        .to_string(),
    );
    let (outcome, _) = scene.run(
        "verboo",
        "SessionStart",
        json!({"session_id": "s", "source": "startup"}),
    );
    assert_eq!(statuses(&outcome), ["ok", "ok"], "{outcome}");
    let env = outcome["session_env"].as_str().unwrap();
    assert!(env.contains("export NODE_ENV=production\n"), "{env}");
    assert!(env.contains("export API=\"a b\"\n"), "{env}");
    assert_eq!(outcome["additional_context"], "started");
    // Not every event gets one.
    let (prompt, _) = scene.run(
        "verboo",
        "UserPromptSubmit",
        json!({"session_id": "s", "prompt": "hi"}),
    );
    assert_eq!(prompt["additional_context"], "none", "{prompt}");
    assert_eq!(prompt["session_env"], Value::Null);
}

#[test]
fn async_hooks_run_to_completion_after_the_outcome_is_printed() {
    let scene = Scene::new();
    let hooks: Vec<Value> = (0..3)
        .map(|i| {
            json!({"type": "command", "async": true, "timeout": 30,
                   "command": format!("sleep 0.3; touch async-{i}")})
        })
        .collect();
    scene.write(
        "home/settings.json",
        &json!({"hooks": {"PostToolUse": [{"hooks": hooks}]}}).to_string(),
    );
    let mut input = bash("ls");
    input["tool_response"] = json!({"stdout": ""});
    let (outcome, _) = scene.run("verboo", "PostToolUse", input);
    assert_eq!(statuses(&outcome), ["async", "async", "async"], "{outcome}");
    // `hook run` returned only after they finished: every one of them ran.
    for i in 0..3 {
        assert!(
            scene.path(&format!("project/async-{i}")).exists(),
            "async hook {i} never ran"
        );
    }
}

/// A lime plugin `name` with `hooks.json`.
fn lime_plugin(scene: &Scene, name: &str, hooks: &Value) {
    scene.write(
        &format!("home/plugins/{name}/plugin.json"),
        &json!({"name": name, "version": "1.0.0", "description": "d"}).to_string(),
    );
    scene.write(
        &format!("home/plugins/{name}/hooks/hooks.json"),
        &hooks.to_string(),
    );
}

#[test]
fn lime_matches_apply_patch_as_edit_and_write_once_each_and_plugins_get_claude_plugin_root() {
    let scene = Scene::new();
    let record = |name: &str| format!("echo {name} >> \"$CLAUDE_PLUGIN_ROOT/ran\"");
    lime_plugin(
        &scene,
        "guard",
        &json!({"hooks": {"PreToolUse": [
            {"matcher": "Edit", "hooks": [{"type": "command", "command": record("edit")}]},
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": record("write-or-edit")}]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": record("bash")}]},
        ]}}),
    );
    scene.write("home/config.toml", "[plugins.guard]\nenabled = true\n");
    scene.trust_all("lime");
    let input = json!({"session_id": "s", "turn_id": "t", "model": "m", "transcript_path": null,
        "permission_mode": "default", "tool_name": "apply_patch", "tool_use_id": "u",
        "tool_input": {"command": "*** Begin Patch\n*** End Patch\n"}});
    let (outcome, _) = scene.run("lime", "PreToolUse", input);
    assert_eq!(statuses(&outcome), ["ok", "ok"], "{outcome}");
    let ran = std::fs::read_to_string(scene.path("home/plugins/guard/ran")).unwrap();
    let mut ran: Vec<&str> = ran.lines().collect();
    ran.sort_unstable();
    assert_eq!(ran, ["edit", "write-or-edit"]);
}

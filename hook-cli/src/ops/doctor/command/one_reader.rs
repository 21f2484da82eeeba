//! Trust coverage, `hook doctor` and `if` rules read what a command runs with one reader
//! (`hook_protocol::shell::read_command`): one table of commands, read by all three, gives the
//! same program and script for each.

use std::path::Path;

use hook_config::{Environment, LoadOptions, PermissionRule, RunPlace};

use super::*;

/// `text` at `root/rel`, with its folders.
fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
    std::fs::write(path, text).expect("written");
}

/// (command, its program as written, the script word the program runs — the program itself
/// when it is the script —, and that script's file in the project)
const TABLE: &[(&str, &str, &str, &str)] = &[
    (
        "env A=1 ./hooks/x.sh",
        "./hooks/x.sh",
        "./hooks/x.sh",
        "hooks/x.sh",
    ),
    (
        "exec ./hooks/x.sh",
        "./hooks/x.sh",
        "./hooks/x.sh",
        "hooks/x.sh",
    ),
    (
        "nohup ./hooks/x.sh",
        "./hooks/x.sh",
        "./hooks/x.sh",
        "hooks/x.sh",
    ),
    (
        "nice -5 ./hooks/x.sh",
        "./hooks/x.sh",
        "./hooks/x.sh",
        "hooks/x.sh",
    ),
    (
        "time -p ./hooks/x.sh",
        "./hooks/x.sh",
        "./hooks/x.sh",
        "hooks/x.sh",
    ),
    (
        "command ./hooks/x.sh",
        "./hooks/x.sh",
        "./hooks/x.sh",
        "hooks/x.sh",
    ),
    (
        "A=1 B+=2 ./hooks/x.sh",
        "./hooks/x.sh",
        "./hooks/x.sh",
        "hooks/x.sh",
    ),
    ("cd hooks && ./x.sh", "./x.sh", "./x.sh", "hooks/x.sh"),
    (
        "builtin cd hooks && ./x.sh",
        "./x.sh",
        "./x.sh",
        "hooks/x.sh",
    ),
    (
        "bash -c 'cd hooks && ./x.sh'",
        "./x.sh",
        "./x.sh",
        "hooks/x.sh",
    ),
    // Trust did not look through `time`, the `if` rules not into `/bin/bash`.
    (
        "time bash -c 'cd hooks && ./x.sh'",
        "./x.sh",
        "./x.sh",
        "hooks/x.sh",
    ),
    (
        "/bin/bash -c './hooks/x.sh'",
        "./hooks/x.sh",
        "./hooks/x.sh",
        "hooks/x.sh",
    ),
    (
        "sh -ec 'nohup bash hooks/x.sh'",
        "bash",
        "hooks/x.sh",
        "hooks/x.sh",
    ),
    (
        "time -p nohup bash hooks/x.sh",
        "bash",
        "hooks/x.sh",
        "hooks/x.sh",
    ),
    (
        "python3 -u hooks/check.py",
        "python3",
        "hooks/check.py",
        "hooks/check.py",
    ),
    (
        "python3 \"hooks/my check.py\"",
        "python3",
        "hooks/my check.py",
        "hooks/my check.py",
    ),
    ("node app/x.js", "node", "app/x.js", "app/x.js"),
    (
        "env -i PATH=/bin node app/x.js",
        "node",
        "app/x.js",
        "app/x.js",
    ),
    (
        "\"$CLAUDE_PROJECT_DIR\"/hooks/x.sh",
        "$CLAUDE_PROJECT_DIR/hooks/x.sh",
        "$CLAUDE_PROJECT_DIR/hooks/x.sh",
        "hooks/x.sh",
    ),
    (
        "python3 ${CLAUDE_PROJECT_DIR}/hooks/check.py",
        "python3",
        "${CLAUDE_PROJECT_DIR}/hooks/check.py",
        "hooks/check.py",
    ),
];

#[test]
fn trust_doctor_and_if_rules_read_the_same_programs_and_scripts() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let project = root.join("project");
    for rel in [
        "hooks/x.sh",
        "hooks/check.py",
        "hooks/my check.py",
        "app/x.js",
    ] {
        write(&project, rel, "exit 0\n");
    }
    let hooks: Vec<serde_json::Value> = TABLE
        .iter()
        .map(|(command, ..)| serde_json::json!({"type": "command", "command": command}))
        .collect();
    let settings =
        serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}});
    // The dialect with a project variable (verboo: `$CLAUDE_PROJECT_DIR`), whose files hold
    // matcher groups in JSON.
    let dialect = Dialect::ALL
        .iter()
        .copied()
        .find(|d| d.rules().input().project_dir_env().is_some())
        .expect("a dialect that names the project");
    let rules = dialect.rules();
    let file = format!(
        "{}/{}",
        rules.config().home_dir(),
        rules.config().config_file()
    );
    write(&project, &file, &settings.to_string());
    std::fs::create_dir_all(root.join("home")).expect("home");
    let options = LoadOptions::new(dialect, Environment::empty())
        .with_managed_file(root.join("managed.json"))
        .with_home(root.join("home"))
        .with_project(&project);
    let loaded = hook_config::load(&options).expect("loaded");
    let handlers = loaded.registry.handlers();
    assert_eq!(handlers.len(), TABLE.len(), "{:?}", loaded.diagnostics);
    let env = Env {
        path: Vec::new(),
        project: project.clone(),
        project_var: rules.input().project_dir_env(),
    };
    let place = RunPlace::new(project.clone(), Some(project.clone()));
    for ((command, program, script, file), handler) in TABLE.iter().zip(handlers) {
        assert_eq!(handler.config.command.as_deref(), Some(*command));
        let path = project.join(file);
        // Trust covers the script.
        let named = hook_trust::named_files(dialect, handler, &place);
        let names: Vec<&str> = named.iter().map(|f| f.name.as_str()).collect();
        assert!(
            names.contains(&format!("<project>/{file}").as_str()),
            "trust, {command}: {names:?}"
        );
        // Doctor checks the program, and the script an interpreter is given.
        let expected = if program.contains('/') {
            Run {
                program: Program::Path(path.clone()),
                script: None,
            }
        } else {
            Run {
                program: Program::Name((*program).to_owned()),
                script: Some(path.clone()),
            }
        };
        let runs = runs(command, &env);
        assert!(runs.contains(&expected), "doctor, {command}: {runs:?}");
        // A prefix rule on the program and its script matches.
        let pattern = if program == script {
            format!("Bash({program}*)")
        } else {
            format!("Bash({program}*{script}*)")
        };
        let rule = PermissionRule::parse(&pattern).expect("a rule");
        let input = serde_json::json!({ "command": command });
        assert!(
            rule.matches("Bash", Some(&input)),
            "if rule, {command}: {pattern}"
        );
    }
}

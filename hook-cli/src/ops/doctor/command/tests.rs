//! In-process tests of `hook doctor`'s command-line checks, table-driven: each command line
//! against a project and an agent's `PATH` built in a temporary folder.

use std::path::Path;

use super::*;

/// `text` at `path`, executable or not.
fn file(path: &Path, text: &str, executable: bool) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("a folder");
    }
    std::fs::write(path, text).expect("written");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = if executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }
}

/// The findings of `command` in `env`, as `severity: message`.
fn findings(command: &str, env: &Env) -> Vec<String> {
    let mut found = Vec::new();
    let mut add = |severity: Severity, message: String, _fix: Option<Fix>| {
        found.push(format!("{}: {message}", severity.as_str()));
    };
    check_command_line(command, env, &mut add);
    found
}

#[cfg(unix)]
#[test]
fn each_command_line_is_checked_where_the_agent_runs_it() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bin = dir.path().join("bin");
    let project = dir.path().join("project");
    file(&bin.join("jq"), "", true);
    file(&bin.join("env"), "", true);
    file(&bin.join("nice"), "", true);
    file(&bin.join("bash"), "", true);
    file(&bin.join("sh"), "", true);
    file(&bin.join("python3"), "", true);
    file(&bin.join("notexec"), "", false);
    file(&project.join("hooks/guard.sh"), "#!/bin/sh\njq .x\n", true);
    file(&project.join("hooks/plain.sh"), "#!/bin/sh\n", false);
    file(
        &project.join("hooks/needs-node.sh"),
        "#!/bin/sh\nnode x.js\n",
        true,
    );
    file(
        &project.join("hooks/env-ruby.sh"),
        "#!/usr/bin/env ruby\n",
        true,
    );
    file(
        &project.join("hooks/bad-shebang.sh"),
        "#!/no/such/sh\n",
        true,
    );
    file(&project.join("hooks/check.py"), "print(1)\n", false);
    std::fs::create_dir_all(project.join("sub")).expect("a folder");
    let env = Env {
        path: vec![bin],
        project: project.clone(),
        project_var: Some("CLAUDE_PROJECT_DIR"),
    };
    // (command line, the findings, each `severity: ` and a part of its message)
    let table: &[(&str, &[&str])] = &[
        ("./hooks/guard.sh", &[]),
        ("jq -r .tool_name", &[]),
        ("echo hi; exit 0", &[]),
        ("FOO=1 env jq .", &[]),
        ("\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh", &[]),
        ("${CLAUDE_PROJECT_DIR}/hooks/guard.sh", &[]),
        // Another variable leaves the word unchecked.
        ("$OTHER/hooks/missing.sh", &[]),
        ("bash hooks/guard.sh", &[]),
        ("python3 hooks/check.py", &[]),
        ("cd hooks && ./guard.sh", &[]),
        ("cd sub && ../hooks/guard.sh", &[]),
        // After a `cd` somewhere unknown, a relative path is not checked.
        ("cd \"$OTHER\" && ./missing.sh", &[]),
        (
            "missing-tool --flag",
            &["error: `missing-tool` is not on the agent's PATH"],
        ),
        (
            "./hooks/missing.sh",
            &["error: its program", "does not exist"],
        ),
        (
            "bash hooks/missing.sh",
            &["error: its script", "does not exist"],
        ),
        ("./hooks/plain.sh", &["error: ", "is not executable"]),
        ("./hooks/needs-node.sh", &["error: the hook calls `node`"]),
        (
            "./hooks/env-ruby.sh",
            &["error: ", "interpreter `ruby` (#!/usr/bin/env ruby)"],
        ),
        (
            "./hooks/bad-shebang.sh",
            &["error: ", "interpreter /no/such/sh", "not executable"],
        ),
        (
            "./hooks",
            &["error: its program", "is a directory", "not a regular file"],
        ),
        (
            "bash -c 'missing-inner x'",
            &["error: `missing-inner` is not on the agent's PATH"],
        ),
        (
            "sh -c \"bash -c 'jq . | missing-x'\"",
            &["error: `missing-x` is not on the agent's PATH"],
        ),
        // What only the one command reader sees (doctor used to check `nice`, the `then`
        // keyword, `-v`, `pkg.check` as a script, and never the `-ec` string).
        (
            "nice ./hooks/missing.sh",
            &["error: its program", "does not exist"],
        ),
        (
            "if ./hooks/guard.sh; then missing-then; fi",
            &["error: `missing-then` is not on the agent's PATH"],
        ),
        ("command -v jq >/dev/null || exit 0", &[]),
        ("python3 -m pkg.check", &[]),
        (
            "bash -ec 'missing-ec'",
            &["error: `missing-ec` is not on the agent's PATH"],
        ),
        ("nohup jq .", &["error: `nohup` is not on the agent's PATH"]),
        (
            "jq . && notexec",
            &["error: `notexec` is not on the agent's PATH"],
        ),
    ];
    for (command, expected) in table {
        let got = findings(command, &env);
        match expected {
            [] => assert!(got.is_empty(), "{command}: {got:?}"),
            [first, rest @ ..] => {
                assert_eq!(got.len(), 1, "{command}: {got:?}");
                assert!(got[0].starts_with(first), "{command}: {got:?}");
                for part in rest {
                    assert!(got[0].contains(part), "{command}: {got:?} lacks {part}");
                }
            }
        }
    }
}

#[test]
fn words_are_read_as_the_shell_would() {
    // (text, name, whether it names the command)
    let commands = [
        ("jq .", "jq", true),
        ("cat x | jq .", "jq", true),
        ("$(jq .)", "jq", true),
        ("/usr/bin/jq .", "jq", false),
        ("jquery", "jq", false),
        ("my-node", "node", false),
        ("x; node", "node", true),
    ];
    for (text, name, expected) in commands {
        assert_eq!(names_command(text, name), expected, "{name} in {text:?}");
    }
    let joins = [
        ("/p", "a/b", "/p/a/b"),
        ("/p/q", "../x", "/p/x"),
        ("/p", "./x/./y", "/p/x/y"),
        ("/p", "/abs", "/abs"),
    ];
    for (base, path, expected) in joins {
        assert_eq!(
            join(Path::new(base), path),
            Path::new(expected),
            "{base} + {path}"
        );
    }
    assert_eq!(located(None, "rel"), None);
    assert_eq!(located(None, "/a/../b"), Some("/b".into()));
}

#[test]
fn only_the_project_variable_and_home_are_expanded() {
    let env = Env {
        path: Vec::new(),
        project: "/proj".into(),
        project_var: Some("CLAUDE_PROJECT_DIR"),
    };
    let table = [
        ("$CLAUDE_PROJECT_DIR/x", Some("/proj/x")),
        ("${CLAUDE_PROJECT_DIR}/x", Some("/proj/x")),
        ("$OTHER/x", None),
        ("`pwd`/x", None),
        ("plain", Some("plain")),
    ];
    for (word, expected) in table {
        assert_eq!(env.expand(word).as_deref(), expected, "{word}");
    }
    let no_var = Env {
        project_var: None,
        ..env
    };
    assert_eq!(no_var.expand("$CLAUDE_PROJECT_DIR/x"), None);
}

//! The command reader on a table of command lines: what each simple command runs.

use super::*;

/// A summary of one read simple command: `program [script] [module] [cd target] {inline}`.
fn summary(parts: &CommandParts) -> String {
    let mut out = parts.program.plain.clone();
    if let Some(script) = &parts.script {
        out.push_str(&format!(" script={}", script.plain));
    }
    if let Some(module) = &parts.module {
        out.push_str(&format!(" module={}", module.plain));
    }
    if parts.changes_dir {
        let target = parts.cd_target.as_ref().map_or("~", |w| w.plain.as_str());
        out.push_str(&format!(" cd={target}"));
    }
    if !parts.inline.is_empty() {
        let inner: Vec<String> = parts.inline.iter().map(summary).collect();
        out.push_str(&format!(" {{{}}}", inner.join("; ")));
    }
    out
}

#[test]
fn each_simple_command_is_read_for_what_it_runs() {
    let table: &[(&str, &[&str])] = &[
        ("./x.sh", &["./x.sh"]),
        ("A=1 B+=2 ./x.sh", &["./x.sh"]),
        // A quoted name is not an assignment: the shell runs a program `A=1`.
        ("'A'=1 ./x.sh", &["A=1"]),
        ("env -i X=1 nohup nice -5 ./x.sh", &["./x.sh"]),
        ("nohup A=1 git push", &["git"]),
        (
            "/usr/bin/env bash -c 'cd hooks && ./g.sh'",
            &["bash {cd cd=hooks; ./g.sh}"],
        ),
        ("time -p builtin command exec sudo xargs jq", &["jq"]),
        ("exec 3>&1", &["exec"]),
        ("cd && ./x.sh", &["cd cd=~", "./x.sh"]),
        ("pushd -q sub; ./y", &["pushd cd=sub", "./y"]),
        ("bash -ec 'jq .'", &["bash {jq}"]),
        ("sh -o pipefail -c 'jq . | tee log'", &["sh {jq; tee}"]),
        (
            "bash +x hooks/g.sh -c notinline",
            &["bash script=hooks/g.sh"],
        ),
        ("fish -c 'x'", &["fish {x}"]),
        ("eval 'bash -c \"./deep.sh\"'", &["eval {bash {./deep.sh}}"]),
        (
            "python3 -u -W ignore check.py arg",
            &["python3 script=check.py"],
        ),
        ("python3.12 -m pkg.mod", &["python3.12 module=pkg.mod"]),
        ("pypy3 -mpkg", &["pypy3 module=pkg"]),
        ("python3 -Ic 'print(1)'", &["python3"]),
        ("node -r ts-node/register x.js", &["node script=x.js"]),
        ("nodejs -e 'x'", &["nodejs"]),
        ("ruby -w x.rb", &["ruby script=x.rb"]),
        (
            "\"$CLAUDE_PROJECT_DIR\"/hooks/g.sh",
            &["$CLAUDE_PROJECT_DIR/hooks/g.sh"],
        ),
        ("python3 \"my dir/x.py\"", &["python3 script=my dir/x.py"]),
        (
            "if ./check.sh; then ./ok.sh; fi",
            &["./check.sh", "./ok.sh"],
        ),
        ("for f in a b; do ./x.sh \"$f\"; done", &["./x.sh"]),
        ("A=1", &[]),
    ];
    for (command, expected) in table {
        let got: Vec<String> = read_command(command).iter().map(summary).collect();
        assert_eq!(got, *expected, "{command}");
    }
}

/// `text` single-quoted for the shell.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

#[test]
fn inline_strings_are_read_to_a_bounded_depth() {
    let mut command = "jq .".to_owned();
    for _ in 0..10 {
        command = format!("sh -c {}", quote(&command));
    }
    let mut parts = read_command(&command);
    let mut depth = 0;
    while let Some(first) = parts.first() {
        if first.inline.is_empty() {
            break;
        }
        parts = first.inline.clone();
        depth += 1;
    }
    assert_eq!(depth, MAX_INLINE_DEPTH);
}

#[test]
fn wrappers_are_kept_for_readers_that_look_through_them() {
    let parts = &read_command("env -i X=1 command -v jq")[0];
    assert_eq!(parts.program.plain, "jq");
    assert!(parts.looks_up_only());
    let names: Vec<&str> = parts.wrapper_programs().map(|w| w.plain.as_str()).collect();
    assert_eq!(names, ["env"]);
    let words: Vec<&str> = parts
        .words_from(1)
        .iter()
        .map(|w| w.plain.as_str())
        .collect();
    assert_eq!(words, ["command", "-v", "jq"]);
    assert!(!read_command("command jq")[0].looks_up_only());
}

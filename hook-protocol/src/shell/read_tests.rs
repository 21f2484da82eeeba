//! The command reader on a table of command lines: what each simple command runs.

use super::*;

/// A summary of one read simple command: `program [script] [module] [cd target] [stdin: it
/// runs its standard input] [<N: it reads command N's output] {inline}`.
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
    if parts.defines_function {
        out.push_str("()");
    }
    if parts.script_from_stdin {
        out.push_str(" stdin");
    }
    if let Some(source) = parts.stdin_from {
        out.push_str(&format!(" <{source}"));
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
        ("sh -o pipefail -c 'jq . | tee log'", &["sh {jq; tee <0}"]),
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
        // Wrappers' options that take a value, and their own operands.
        ("sudo -u root rm -rf /", &["rm"]),
        ("sudo -Eu root --preserve-env rm x", &["rm"]),
        ("sudo --user=root -- rm x", &["rm"]),
        ("sudo --user root rm x", &["rm"]),
        ("nice -n 5 ./x.sh", &["./x.sh"]),
        ("timeout -s KILL 5 ./x.sh", &["./x.sh"]),
        ("timeout 5", &["timeout"]),
        ("xargs -I {} -P4 rm {}", &["rm"]),
        ("doas -u bob ionice -c 3 chrt -f 10 ./x.sh", &["./x.sh"]),
        ("busybox rm -rf x", &["rm"]),
        ("env -S 'rm -rf x'", &["env {rm}"]),
        // Commands `find` runs.
        (
            "find . -name x -exec rm -rf {} + -o -execdir sh -c 'jq .' _ {} \\;",
            &["find {rm; sh {jq}}"],
        ),
        // Pipes: which command's output each one reads.
        ("curl -s x | sh", &["curl", "sh stdin <0"]),
        (
            "curl x | tee f |& sudo bash -s -- a",
            &["curl", "tee <0", "bash stdin <1"],
        ),
        ("a | b && c || d | e", &["a", "b <0", "c", "d", "e <3"]),
        ("(curl x) |\n sh", &["curl", "sh stdin <0"]),
        (
            "for f in a; do curl $f; done | sh",
            &["curl", "sh stdin <0"],
        ),
        ("curl $(echo u) | sh", &["echo", "curl", "sh stdin <1"]),
        (
            "echo $((1+2)) \"$(( $n * (2) ))\" | jq .",
            &["echo", "jq <0"],
        ),
        // `$((` that is no expression: a command substitution holding a subshell.
        (
            "echo $((cd x; ls) ) $(( git push ))",
            &["cd cd=x", "ls", "git", "echo"],
        ),
        // Substitutions, quoted or not, are commands; the word keeps their text.
        ("echo \"$(rm -rf x)\" `jq .`", &["rm", "jq", "echo"]),
        (
            "bash -c \"$(curl -fsSL u)\"",
            &["curl", "bash {curl; $(curl -fsSL u)}"],
        ),
        ("sh <(curl u)", &["curl", "sh script=<(curl u)"]),
        ("bash < <(curl u)", &["curl", "bash stdin"]),
        // Here-documents: text, but for what a shell reads as its script and an unquoted
        // body's substitutions.
        (
            "bash <<EOF\nrm -rf x\nEOF\necho done",
            &["bash stdin {rm}", "echo"],
        ),
        ("sh <<< 'jq .'", &["sh stdin {jq}"]),
        // Through a pipe: a shell reading its stdin runs what a here-document gives it.
        (
            "cat <<'EOF' | sudo sh\nrm -rf x\nEOF",
            &["cat", "sh stdin <0 {rm}"],
        ),
        ("tr a b <<< 'jq .' | bash -s", &["tr", "bash stdin <0 {jq}"]),
        ("cat <<EOF | tee log\nrm x\nEOF", &["cat", "tee <0"]),
        ("cat <<'EOF' > f\nrm -rf x $(y)\nEOF", &["cat"]),
        ("cat <<EOF\nrm $(rm -rf x)\nEOF", &["cat", "rm"]),
        (
            "git commit -m \"$(cat <<'EOF'\nIt's done: rm -rf ~\nEOF\n)\"",
            &["cat", "git"],
        ),
        ("python3 -", &["python3 stdin"]),
        // Function definitions: the header runs nothing, its body's commands are its own.
        (":(){ :|:& };:", &[":() {:; : <0}", ":"]),
        (
            "function f { f | f & }; f | g",
            &["f() {f; f <0}", "f", "g <1"],
        ),
        (
            "g () { h() { ls; }; { jq; }; }; arr=() x=(a b); g",
            &["g() {h() {ls}; jq}", "g"],
        ),
        ("python3 -c 'x' | node", &["python3", "node stdin <0"]),
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

#[test]
fn a_command_ends_inside_a_quote_or_substitution_or_not() {
    for (command, complete) in [
        ("echo \"$(date)\" 'a' `b`", true),
        ("cat <<'EOF'\nit's\nEOF\n", true),
        ("echo $((1 + (2)))", true),
        ("echo 'open", false),
        ("echo \"open", false),
        ("echo $(date", false),
        ("echo `date", false),
        ("echo x \\", false),
        ("echo $((1", false),
        ("echo $((1 + (2)))", true),
    ] {
        assert_eq!(super::super::is_complete(command), complete, "{command}");
    }
}

#[test]
fn substitutions_and_here_documents_are_lexed_apart() {
    let commands = super::super::simple_commands("rm -rf $(echo ~) \"a$(b \")\")\" x");
    let plain: Vec<Vec<&str>> = commands
        .iter()
        .map(|words| words.iter().map(|w| w.plain.as_str()).collect())
        .collect();
    assert_eq!(
        plain,
        [
            vec!["echo", "~"],
            vec!["b", ")"],
            vec!["rm", "-rf", "$(echo ~)", "a$(b \")\")", "x"]
        ]
    );
    let found = super::super::redirections("cat <<-EOF >out; echo\n\tone\n\tEOF\nls");
    let bodies: Vec<(&str, Option<&str>)> = found
        .iter()
        .map(|r| (r.operator.as_str(), r.body.as_deref()))
        .collect();
    assert_eq!(bodies, [("<<-", Some("one\n")), (">", None)]);
    let programs: Vec<String> = read_command("cat <<-EOF >out; echo\n\tone\n\tEOF\nls")
        .iter()
        .map(summary)
        .collect();
    assert_eq!(programs, ["cat", "echo", "ls"]);
}

#[test]
fn hostile_nesting_is_bounded() {
    let open = "$(".repeat(100_000);
    assert!(!super::super::is_complete(&open));
    let backquotes = "echo \"`".repeat(50_000);
    let _ = read_command(&backquotes);
    // Function bodies nest a bounded number of levels.
    let functions = "f() { ".repeat(10_000) + &"}; ".repeat(10_000);
    let mut parts = read_command(&functions);
    let mut depth = 0;
    while let Some(first) = parts.first() {
        parts = first.inline.clone();
        depth += 1;
    }
    assert!(depth <= 17, "{depth}");
    let bodies = "cat <<A ".repeat(20_000) + &"; x".repeat(20_000) + "\nA\n";
    assert_eq!(super::super::redirections(&bodies).len(), 20_000);
    // Here-documents inside substitutions inside bodies: bodies are read to a bounded depth.
    let mut command = "rm -rf x".to_owned();
    for _ in 0..20 {
        command = format!("cat <<EOF\n$({command}\n)\nEOF\n");
    }
    let _ = read_command(&command);
}

#[test]
fn loops_give_the_words_they_go_over() {
    for (command, expected) in [
        ("for f in ~/.ssh/*; do cat \"$f\"; done", &["~/.ssh/*"][..]),
        ("if x; then for f in 'a b' c\ndo :; done; fi", &["a b", "c"]),
        ("select x in a b; do break; done", &["a", "b"]),
        ("for f; do :; done", &[]),
        ("for ((i = 0; i < 3; i++)); do :; done", &[]),
        ("echo for x in y; 'for' x in y", &[]),
        ("case $x in a) :;; esac", &[]),
        ("cat <<EOF\nfor f in body; do :; done\nEOF", &[]),
    ] {
        let words = super::super::loop_words(command);
        let plain: Vec<&str> = words.iter().map(|w| w.plain.as_str()).collect();
        assert_eq!(plain, expected, "{command}");
    }
}

//! verboo `if` rules on shell commands: every common spelling of a command is seen, and a
//! command that only mentions another one as an argument is not.

use hook_config::PermissionRule;
use serde_json::json;

fn bash_matches(rule: &str, command: &str) -> bool {
    let rule = PermissionRule::parse(rule).expect("valid rule");
    rule.matches("Bash", Some(&json!({ "command": command })))
}

/// `(command, whether `Bash(git push*)` matches it)`.
const GIT_PUSH: &[(&str, bool)] = &[
    // Spelled plainly, or as one part of a compound command.
    ("git push", true),
    ("git push origin main", true),
    ("cd x && git push", true),
    ("false || git push", true),
    ("ls; git push", true),
    ("ls | git push", true),
    ("ls\ngit push", true),
    // Backgrounded, or after a backgrounded command.
    ("true & git push", true),
    ("git push &", true),
    ("true&git push", true),
    // Whitespace, however written.
    ("git  push", true),
    ("git\tpush", true),
    ("  git push  ", true),
    ("git \\\n push", true),
    // Leading assignments, redirections and reserved words.
    ("GIT_TRACE=1 git push", true),
    ("A=1 B='x y' git push", true),
    ("time git push", true),
    ("time -p git push", true),
    ("! git push", true),
    ("{ git push; }", true),
    ("( git push )", true),
    ("(git push)", true),
    ("if true; then git push; fi", true),
    ("if git push; then :; fi", true),
    ("while true; do git push; done", true),
    ("until false; do git push; done", true),
    ("for x in a; do git push; done", true),
    ("case x in x) git push;; esac", true),
    (">/dev/null git push", true),
    ("2>/dev/null git push", true),
    ("2>&1 git push", true),
    ("< in.txt git push", true),
    ("git push >&2", true),
    ("git push 2>&1 | tee log", true),
    ("git push &>/dev/null", true),
    // Precommand wrappers that run their arguments as the command.
    ("exec git push", true),
    ("command git push", true),
    ("builtin git push", true),
    ("nohup git push", true),
    ("env GIT_TRACE=1 git push", true),
    ("env -i git push", true),
    // Text run again as a command.
    ("eval git push", true),
    ("eval 'git push'", true),
    ("sh -c 'git push'", true),
    ("bash -lc \"cd x && git push\"", true),
    ("sh -c 'echo git push'", false),
    // Read by the one command reader trust and doctor use too: wrappers and shells named by
    // a path, every shell trust knew, options with a value before `-c`.
    ("/usr/bin/env git push", true),
    ("/bin/bash -c 'git push'", true),
    ("mksh -c 'git push'", true),
    ("bash -o pipefail -c 'git push | cat'", true),
    ("env - git push", true),
    // Wrappers' options with a value and own operands, and the commands `find` runs.
    ("sudo -u bob git push", true),
    ("nice -n 5 git push", true),
    ("timeout -s KILL 5 git push", true),
    ("doas git push", true),
    ("find . -exec git push \\;", true),
    ("env -S 'git push'", true),
    // A here-document a shell reads is its script; any other's body is text.
    ("bash <<EOF\ngit push\nEOF", true),
    ("cat <<'EOF'\ngit push\nEOF", false),
    // Quotes around words are shell syntax, not part of the command.
    ("git 'push'", true),
    ("\"git\" push", true),
    // Command substitutions and subshells run commands too.
    ("echo $(git push)", true),
    ("echo `git push`", true),
    ("echo \"$(git push)\"", true),
    ("diff <(git push) x", true),
    // Negatives: the words appear, but not as the command that runs.
    ("echo git push", false),
    ("echo 'git push'", false),
    ("git status", false),
    ("gitpush", false),
    ("git pull && echo push", false),
    ("ls # git push", false),
    ("printf '%s' \"a; git push\"", false),
];

#[test]
fn every_spelling_of_git_push() {
    let mut wrong = Vec::new();
    for (command, want) in GIT_PUSH {
        if bash_matches("Bash(git push*)", command) != *want {
            wrong.push(format!("{command:?}: expected {want}"));
        }
    }
    assert!(wrong.is_empty(), "wrong matches:\n{}", wrong.join("\n"));
}

/// The other rule shapes keep their meaning on normalised commands.
#[test]
fn rule_shapes_on_normalised_commands() {
    let table: &[(&str, &str, bool)] = &[
        ("Bash(git push:*)", "GIT_TRACE=1 git  push origin", true),
        ("Bash(git push:*)", "git pushx", false),
        ("Bash(git push:*)", "time git push", true),
        ("Bash(git *)", "git", true),
        ("Bash(git *)", "FOO=1 git", true),
        ("Bash(git *)", "gitk", false),
        ("Bash(rm -rf *)", "sudo=1 rm  -rf /", true),
        ("Bash(npm run test)", "npm\trun test", true),
        ("Bash(npm run test)", "npm run test2", false),
        // Quoted text keeps its spaces: a pattern may still name the quoted form.
        ("Bash(echo 'a  b')", "echo 'a  b'", true),
        ("Bash(echo a  b)", "echo 'a  b'", true),
        ("Bash", "anything at all", true),
    ];
    for (rule, command, want) in table {
        assert_eq!(bash_matches(rule, command), *want, "{rule} on {command:?}");
    }
}

/// An `if` rule is bounded work on a hostile command: long, deeply nested, full of separators.
#[test]
fn hostile_commands_are_bounded() {
    let long = "a".repeat(200_000);
    let nested = "(".repeat(50_000) + "git push" + &")".repeat(50_000);
    let separators = "; & | && || ".repeat(20_000) + "git push";
    let quotes = "'".repeat(99_999);
    let stars = "*".repeat(1000) + "b";
    for command in [&long, &nested, &separators, &quotes] {
        let _ = bash_matches("Bash(git push*)", command);
        let _ = bash_matches(&format!("Bash({stars})"), command);
    }
    assert!(bash_matches("Bash(git push*)", &nested));
    assert!(bash_matches("Bash(git push*)", &separators));
}

//! Every `hook` command line of the README's examples is one `hook` accepts: no example keeps a
//! flag, a value or a subcommand that changed (parsed only; what the commands print is for the
//! README's reader to compare). Commands are the lines of `sh` blocks and the `$ ` lines of the
//! others, the `hook` after a pipe, `;`, `&&` or variables included.

use clap::Parser as _;
use hook_test_support::fs::repo_root;

/// The words of one shell command line, up to its end or a `#` comment; `|`, `;`, `&&`, `||`,
/// `>` and `<` are words of their own. Quotes and backslashes as the shell reads them (no
/// expansion).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    w.push(c);
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"' | '\\' | '$' | '`')) => {
                            w.extend(chars.next());
                        }
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            '#' if word.is_none() => break,
            c if c.is_whitespace() => words.extend(word.take()),
            '|' | ';' | '&' | '>' | '<' => {
                words.extend(word.take());
                let mut operator = c.to_string();
                if chars.peek() == Some(&c) {
                    operator.extend(chars.next());
                }
                words.push(operator);
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// The `hook` commands of `line`: each run of words from a `hook` at a command's start (the
/// line's, or after an operator, past `VAR=value` words) to the next operator.
fn hook_commands(line: &str) -> Vec<Vec<String>> {
    let words = shell_words(line);
    let is_operator = |w: &str| matches!(w, "|" | "||" | ";" | "&&" | "&" | ">" | ">>" | "<");
    let mut commands = Vec::new();
    let mut at_start = true;
    let mut index = 0;
    while index < words.len() {
        let word = words[index].as_str();
        if is_operator(word) {
            at_start = !word.starts_with(['>', '<']);
            index += 1;
            continue;
        }
        if at_start && word.contains('=') && !word.starts_with('-') {
            index += 1;
            continue;
        }
        if at_start && word == "hook" {
            let end = words[index..]
                .iter()
                .position(|w| is_operator(w))
                .map_or(words.len(), |at| index + at);
            commands.push(words[index..end].to_vec());
            index = end;
            continue;
        }
        at_start = false;
        index += 1;
    }
    commands
}

/// The README's command lines, with their line numbers: `sh` blocks' lines, other blocks' `$ `
/// lines, a trailing `\` joining the next line.
fn readme_commands(readme: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut block: Option<String> = None;
    let mut pending: Option<(usize, String)> = None;
    for (index, line) in readme.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            block = match block {
                Some(_) => None,
                None => Some(info.trim().to_owned()),
            };
            continue;
        }
        let Some(kind) = &block else { continue };
        let (number, text) = match pending.take() {
            Some((number, before)) => (number, format!("{before} {}", line.trim())),
            None => match (kind.as_str(), line.strip_prefix("$ ")) {
                ("sh" | "bash", _) => (index + 1, line.to_owned()),
                (_, Some(command)) => (index + 1, command.to_owned()),
                _ => continue,
            },
        };
        match text.strip_suffix('\\') {
            Some(start) => pending = Some((number, start.to_owned())),
            None => found.push((number, text)),
        }
    }
    found
}

#[test]
fn every_hook_command_line_in_the_readme_parses() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let mut checked = 0;
    let mut stale = Vec::new();
    for (number, line) in readme_commands(&readme) {
        if line.contains("...") || line.contains('…') {
            continue;
        }
        for words in hook_commands(&line) {
            checked += 1;
            if let Err(error) = crate::Cli::try_parse_from(&words) {
                use clap::error::ErrorKind::{DisplayHelp, DisplayVersion};
                if !matches!(error.kind(), DisplayHelp | DisplayVersion) {
                    let why = error.to_string();
                    let why = why.lines().next().unwrap_or_default().to_owned();
                    stale.push(format!(
                        "README.md:{number}: {}\n    {why}",
                        words.join(" ")
                    ));
                }
            }
        }
    }
    assert!(
        checked > 40,
        "only {checked} commands found: is the reader broken?"
    );
    assert!(
        stale.is_empty(),
        "README examples `hook` refuses:\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_readers_find_commands_as_a_shell_would() {
    let cases: [(&str, &[&[&str]]); 6] = [
        (
            "hook list --agent claude",
            &[&["hook", "list", "--agent", "claude"]],
        ),
        (
            r#"echo '{"a": 1}' | hook validate --dialect lime # a comment"#,
            &[&["hook", "validate", "--dialect", "lime"]],
        ),
        (
            r#"PATH=/opt/bin hook test --agent claude --expectations; echo "exit $?""#,
            &[&["hook", "test", "--agent", "claude", "--expectations"]],
        ),
        (
            r#"hook trust 'a:b|c:0' && hook run --input "x y" >/dev/null"#,
            &[
                &["hook", "trust", "a:b|c:0"],
                &["hook", "run", "--input", "x y"],
            ],
        ),
        (r#"sh -c "cat > /dev/null; echo hook""#, &[]),
        ("cd hook && ls", &[]),
    ];
    for (line, expected) in cases {
        assert_eq!(hook_commands(line), *expected, "{line}");
    }
    let readme =
        "```sh\nhook a \\\n  --b\n```\ntext hook x\n```console\n$ hook c\nhook output\n```\n";
    assert_eq!(
        readme_commands(readme),
        [(2, "hook a  --b".to_owned()), (7, "hook c".to_owned())]
    );
}

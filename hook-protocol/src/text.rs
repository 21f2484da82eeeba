//! Text helpers the crates share that are not protocol items: a value's JSON type for messages,
//! a cut to the agents' UTF-16 budgets, and what a hook's stderr says of a missing program.
//!
//! Each sits here, out of the crate root, because it is not part of the wire: the root holds
//! the protocol (wire types, events, outcome, interpretation). Their users outside this crate:
//! [`json_type`] in hook-trust's store and hook-exec's MCP arguments (so every message names a
//! type the same way), [`cut_utf16`] in hook-exec's combining
//! ([`Outcome::classifier_context`](crate::Outcome::classifier_context)), [`missing_program`]
//! in the `hook` CLI on journal records, which are not [`Run`](crate::Run)s (a `Run` has
//! [`Run::missing_program`](crate::Run::missing_program)).

use serde_json::Value;

/// The JSON type name of a value with its article (`"an object"`, `"null"`), for messages.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `text` cut to at most `limit` UTF-16 code units, never inside a surrogate pair.
pub fn cut_utf16(text: &str, limit: usize) -> &str {
    let mut units = 0;
    for (index, c) in text.char_indices() {
        units += c.len_utf16();
        if units > limit {
            return &text[..index];
        }
    }
    text
}

/// The program a shell said it could not find, read from a hook's `stderr`: the line a shell
/// prints when a command it was asked to run is not on the `PATH` (bash `guard.sh: line 3: jq:
/// command not found`, dash `/bin/sh: 1: jq: not found`, zsh `zsh: command not found: jq`,
/// GNU `env: 'jq': No such file or directory`). `None` when no line says so.
///
/// This is how a shell guard most often dies: a pipeline stage's program is missing, the shell
/// says so on stderr, and the script still exits 0 (an allow). Such a run is *degraded*: what it
/// answered was not the guard's judgement. Only lines whose first part is a shell or a script
/// (`sh`, `bash`, a path, a `*.sh` file) count, so a hook's own message such as
/// `error: config: not found` is not taken for one.
///
/// ```
/// use hook_protocol::text::missing_program;
/// assert_eq!(missing_program("/tmp/guard.sh: line 2: jq: command not found\n"), Some("jq"));
/// assert_eq!(missing_program("/bin/sh: 1: jq: not found"), Some("jq"));
/// assert_eq!(missing_program("error: config: not found"), None);
/// ```
pub fn missing_program(stderr: &str) -> Option<&str> {
    stderr.lines().take(256).find_map(missing_program_on_line)
}

/// [`missing_program`] of one line.
fn missing_program_on_line(line: &str) -> Option<&str> {
    let line = line.trim_end();
    let (first, _) = line.split_once(": ")?;
    // zsh: `zsh: command not found: jq`, `guard.zsh:3: command not found: jq`.
    if let Some((_, program)) = line.split_once("command not found: ") {
        return plausible_program(program.trim());
    }
    // GNU env: `env: 'jq': No such file or directory` (or with typographic quotes).
    if first == "env" {
        let rest = line.strip_prefix("env: ")?;
        let rest = rest.strip_suffix(": No such file or directory")?;
        let program = rest.trim_matches(|c| matches!(c, '\'' | '\u{2018}' | '\u{2019}'));
        return plausible_program(program);
    }
    // bash `...: jq: command not found`; dash, busybox `...: jq: not found`.
    let before = line
        .strip_suffix(": command not found")
        .or_else(|| line.strip_suffix(": not found"))?;
    let first = first.trim();
    let shell_or_script = matches!(
        first.rsplit('/').next().unwrap_or(first),
        "sh" | "bash" | "dash" | "zsh" | "ash" | "ksh" | "mksh" | "busybox"
    ) || first.contains('/')
        || first.ends_with(".sh")
        || first.ends_with(".bash");
    if !shell_or_script {
        return None;
    }
    let (_, program) = before.rsplit_once(": ")?;
    plausible_program(program.trim())
}

/// `word` when it can be a program's name: one word, not empty.
fn plausible_program(word: &str) -> Option<&str> {
    (!word.is_empty() && !word.contains(char::is_whitespace)).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::missing_program;

    #[test]
    fn a_shell_saying_a_program_is_missing_is_read_and_nothing_else_is() {
        // (stderr, the missing program)
        let table = [
            ("/tmp/p/guard.sh: line 3: jq: command not found", Some("jq")),
            ("bash: line 1: jq: command not found\n", Some("jq")),
            ("bash: jq: command not found", Some("jq")),
            ("/bin/sh: 1: jq: not found", Some("jq")),
            ("sh: jq: not found", Some("jq")),
            ("./hooks/guard.sh: 12: yq: not found", Some("yq")),
            ("zsh: command not found: jq", Some("jq")),
            ("guard.zsh:3: command not found: jq", Some("jq")),
            ("env: 'jq': No such file or directory", Some("jq")),
            (
                "env: \u{2018}jq\u{2019}: No such file or directory",
                Some("jq"),
            ),
            (
                "checking...\n/bin/sh: 1: rg: not found\nallowed",
                Some("rg"),
            ),
            // A hook's own words, not a shell's.
            ("error: config: not found", None),
            ("config.json: not found", None),
            ("blocked: rm -rf is not allowed", None),
            ("bash: line 1: : command not found", None),
            ("", None),
        ];
        for (stderr, program) in table {
            assert_eq!(missing_program(stderr), program, "{stderr:?}");
        }
    }
}

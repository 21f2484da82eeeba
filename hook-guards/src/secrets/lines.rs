//! The text of a command line around its commands: here-documents' bodies (text, unless a
//! shell reads them), the words a `for` loop goes over, and the text of every command
//! substitution, quoted or not. Each is read in one pass over the text.

use hook_sdk::shell;

use crate::command;

/// Shells: a here-document they are given is commands (`ssh host` runs one remotely).
const SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "fish", "ssh",
];

/// A command line with its here-documents' bodies blanked (their lines kept, empty).
pub(super) struct HereDocuments {
    /// Every body blanked: the commands the line runs.
    pub(super) commands: String,
    /// The bodies of quoted delimiters (`<<'EOF'`) blanked: the text whose `$(…)` run.
    pub(super) expanded: String,
}

impl HereDocuments {
    /// `command` read for its here-documents.
    pub(super) fn of(command: &str) -> HereDocuments {
        if !command.contains("<<") {
            return HereDocuments {
                commands: command.to_owned(),
                expanded: command.to_owned(),
            };
        }
        let mut commands = Vec::new();
        let mut expanded = Vec::new();
        // The bodies still to come: (delimiter, tabs stripped, quoted, read by a shell).
        let mut pending: Vec<(String, bool, bool, bool)> = Vec::new();
        for line in command.split('\n') {
            if let Some((delimiter, strip_tabs, quoted, run)) = pending.first() {
                let text = if *strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    line
                };
                if text == delimiter {
                    pending.remove(0);
                    commands.push(line);
                    expanded.push(line);
                } else {
                    commands.push(if *run { line } else { "" });
                    expanded.push(if *quoted && !*run { "" } else { line });
                }
                continue;
            }
            let run = command::read(line).invocations.iter().any(|invocation| {
                SHELLS.contains(&invocation.program.as_str())
                    && !invocation
                        .args
                        .iter()
                        .any(|a| a.starts_with('-') && a.contains('c'))
            });
            for redirection in shell::redirections(line) {
                if matches!(redirection.operator.as_str(), "<<" | "<<-") {
                    let quoted = redirection.target.raw != redirection.target.plain;
                    let strip_tabs = redirection.operator == "<<-";
                    pending.push((redirection.target.plain, strip_tabs, quoted, run));
                }
            }
            commands.push(line);
            expanded.push(line);
        }
        HereDocuments {
            commands: commands.join("\n"),
            expanded: expanded.join("\n"),
        }
    }
}

/// The words a `for`/`select` loop goes over (`for f in ~/.ssh/*`): its program gets them at
/// run time.
pub(super) fn loop_words(command: &str) -> Vec<String> {
    shell::simple_commands(command)
        .into_iter()
        .filter(|words| {
            words
                .first()
                .is_some_and(|w| matches!(w.plain.as_str(), "for" | "select"))
        })
        .flat_map(|words| {
            words
                .into_iter()
                .skip_while(|w| w.plain != "in")
                .skip(1)
                .map(|w| w.plain)
        })
        .collect()
}

/// The text of every command substitution, `$(…)` or backticks, quoted or not (the shell
/// runs them inside double quotes too; the command reader reads only unquoted ones).
pub(super) fn substitutions(command: &str) -> Vec<&str> {
    let bytes = command.as_bytes();
    let mut found = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'\\' => index += 2,
            b'$' if bytes.get(index + 1) == Some(&b'(') => {
                let start = index + 2;
                let mut level = 1usize;
                let mut end = start;
                while end < bytes.len() && level > 0 {
                    match bytes[end] {
                        b'(' => level += 1,
                        b')' => level -= 1,
                        _ => {}
                    }
                    end += 1;
                }
                let stop = if level == 0 { end - 1 } else { end };
                found.push(&command[start..stop]);
                // Substitutions inside it are read when it is.
                index = end;
            }
            b'`' => {
                let start = index + 1;
                let stop = bytes[start..]
                    .iter()
                    .position(|&b| b == b'`')
                    .map_or(bytes.len(), |p| start + p);
                found.push(&command[start..stop]);
                index = stop + 1;
            }
            _ => index += 1,
        }
    }
    found
}

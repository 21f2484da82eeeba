//! hook-cli's own layers ([`CLI_LAYERS`]): a command imports no other command, `ops/` neither
//! parses arguments nor prints nor reaches `commands/` or `ui/`, `ui/` never calls a command.

use crate::source::code_lines;

/// hook-cli's layers, as ARCHITECTURE.md draws them: (the folder, what no file under it names,
/// why and the fix). Module declarations (`mod x;`) in a folder's `mod.rs` are not imports.
pub(crate) const CLI_LAYERS: &[(&str, &[&str], &str)] = &[
    (
        "hook-cli/src/commands/",
        &["crate::commands", "super::"],
        "a command file imports no other command file: move what several commands share into hook-cli/src/args.rs (arguments), ops/ (what they do) or ui/ (what they print)",
    ),
    (
        "hook-cli/src/ops/",
        &[
            "crate::commands",
            "crate::ui",
            "clap::",
            "Printer",
            "outln!",
            "errln!",
            "say!",
            "say_err!",
            "println!",
            "print!",
            "eprint",
            "dbg!",
        ],
        "ops neither parses arguments nor prints, and never reaches commands/ or ui/: return a value (or take a callback) and let the command hand it to ui/",
    ),
    (
        "hook-cli/src/ui/",
        &["crate::commands"],
        "ui/ renders what ops/ returns and never calls a command: have the command call ui/",
    ),
];

/// Where `text` (the hook-cli source file `file`, relative to the workspace root) crosses one of
/// [`CLI_LAYERS`], outside comments and `#[cfg(test)]` items.
pub(crate) fn check_cli_layers(file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let Some((folder, forbidden, why)) = CLI_LAYERS
        .iter()
        .find(|(folder, _, _)| file.starts_with(folder))
    else {
        return problems;
    };
    for (number, code) in code_lines(text) {
        for name in *forbidden {
            if code.contains(name) {
                problems.push(format!("{file}:{number}: `{name}` in {folder}: {why}"));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_importing_another_or_ops_printing_fails_naming_the_line_and_the_fix() {
        let command = "use crate::args::KeysArgs;\nuse crate::commands::list::ListArgs;\nuse super::trust::exec;\n";
        let problems = check_cli_layers("hook-cli/src/commands/untrust.rs", command);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].starts_with("hook-cli/src/commands/untrust.rs:2: `crate::commands` in hook-cli/src/commands/: a command file imports no other command file"),
            "{problems:?}"
        );
        assert!(problems[1].starts_with("hook-cli/src/commands/untrust.rs:3: `super::`"));

        let ops = "use crate::ui::say;\nfn f(p: &Printer) {\n    say!(p, \"x\");\n    // say!(p) in a comment\n}\n#[cfg(test)]\nmod tests {\n    fn g() { println!(\"free\"); }\n}\n";
        let problems = check_cli_layers("hook-cli/src/ops/trust.rs", ops);
        let lines: Vec<&str> = problems
            .iter()
            .map(|p| p.split(' ').next().unwrap_or(""))
            .collect();
        assert_eq!(
            lines,
            [
                "hook-cli/src/ops/trust.rs:1:",
                "hook-cli/src/ops/trust.rs:2:",
                "hook-cli/src/ops/trust.rs:3:"
            ],
            "{problems:?}"
        );
        assert!(problems[0].contains("ops neither parses arguments nor prints"));

        let ui = "use crate::ops::trust::Changed;\nuse crate::commands::trust;\n";
        assert_eq!(check_cli_layers("hook-cli/src/ui/trust.rs", ui).len(), 1);
        // args.rs and main.rs are the wiring, and free.
        assert!(check_cli_layers("hook-cli/src/main.rs", ui).is_empty());
    }
}

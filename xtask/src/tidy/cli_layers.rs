//! hook-cli's own layers ([`CLI_LAYERS`]): a command imports no other command, `ops/` neither
//! parses arguments nor prints nor reaches `commands/` or `ui/`, `ui/` never calls a command;
//! and the relay's readers use its read model, never its writers ([`RELAY_WRITERS`]).

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

/// The files that may import the relay's writers (`ops::relay::install`: install/sync,
/// uninstall and give-back, `--move`, Codex's trust records, backups and state), each with why:
/// a path relative to the workspace root, or a prefix ending where the writers' own files do.
/// Everyone else who reads an agent's settings (the answer, `status`, `doctor`, `list`,
/// `stats`, `replay`) imports the read model, `ops::relay::read`, so that reading them never
/// depends on the code that edits them.
pub(crate) const RELAY_WRITERS: &[(&str, &str)] = &[
    (
        "hook-cli/src/ops/relay/install",
        "the writers themselves (install.rs and install/)",
    ),
    (
        "hook-cli/src/commands/relay/install.rs",
        "the command that runs install",
    ),
    (
        "hook-cli/src/commands/relay/sync.rs",
        "the command that runs sync",
    ),
    (
        "hook-cli/src/commands/relay/uninstall.rs",
        "the command that runs uninstall",
    ),
    (
        "hook-cli/src/ui/relay/install.rs",
        "renders the writers' reports (what install, sync and uninstall did)",
    ),
    (
        "hook-cli/src/args.rs",
        "builds the writers' scope options (ScopeOptions) from the relay commands' flags",
    ),
    (
        "hook-cli/src/ops/guard/relay_file.rs",
        "`hook guard add`/`remove`: a guard's entry written into the relay's own file (RelayFile), then the relay installed or synced (install, sync)",
    ),
    (
        "hook-cli/src/ui/guard.rs",
        "renders what `hook guard add`/`remove` did, the relay's install or sync included (as ui/relay/install.rs prints it)",
    ),
];

/// How a file names the relay's writers: through `crate::ops::relay::install`, or, from
/// `ops/relay/` itself, `super::install` (and `super::super::install` from a folder below).
const RELAY_WRITER_PATHS: &[&str] = &["relay::install", "super::install"];

/// Where `text` (the hook-cli source file `file`, relative to the workspace root) crosses one of
/// [`CLI_LAYERS`], or imports the relay's writers outside [`RELAY_WRITERS`], outside comments
/// and `#[cfg(test)]` items.
pub(crate) fn check_cli_layers(file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let layer = CLI_LAYERS
        .iter()
        .find(|(folder, _, _)| file.starts_with(folder));
    let writer = RELAY_WRITERS
        .iter()
        .any(|(allowed, _)| file.starts_with(allowed));
    for (number, code) in code_lines(text) {
        if let Some((folder, forbidden, why)) = layer {
            for name in *forbidden {
                if code.contains(name) {
                    problems.push(format!("{file}:{number}: `{name}` in {folder}: {why}"));
                }
            }
        }
        if writer {
            continue;
        }
        for name in RELAY_WRITER_PATHS {
            if names_module(&code, name) {
                problems.push(format!(
                    "{file}:{number}: `{name}` outside the relay's writers: what the agent's settings hold is read through crate::ops::relay::read (the read model); import that, or move what you need from ops/relay/install/ into ops/relay/read/ if it only reads"
                ));
            }
        }
    }
    problems
}

/// Whether `code` holds the path `name` as a whole module name (`super::install` but not
/// `super::installed`).
fn names_module(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(at, _)| {
        code[at + name.len()..]
            .chars()
            .next()
            .is_none_or(|next| !(next.is_alphanumeric() || next == '_'))
    })
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

    #[test]
    fn a_reader_importing_the_relays_writers_fails_and_the_writers_may() {
        let reader = "use crate::ops::relay::read::reach::relay_reach;\nuse crate::ops::relay::install::agent_settings_file;\nfn f() { super::install::sync(); super::installed(); }\n// crate::ops::relay::install in a comment\n#[cfg(test)]\nmod tests {\n    use crate::ops::relay::install::InstallReport;\n}\n";
        for file in [
            "hook-cli/src/ops/relay/status.rs",
            "hook-cli/src/ops/doctor/guards.rs",
            "hook-cli/src/ops/stats.rs",
            "hook-cli/src/ops/relay/agents/codex/records.rs",
            "hook-cli/src/ui/list.rs",
        ] {
            let problems = check_cli_layers(file, reader);
            let lines: Vec<&str> = problems
                .iter()
                .map(|p| p.split(' ').next().unwrap_or(""))
                .collect();
            assert_eq!(
                lines,
                [format!("{file}:2:"), format!("{file}:3:")],
                "{problems:?}"
            );
            assert!(
                problems[0].contains("crate::ops::relay::read (the read model)"),
                "{problems:?}"
            );
        }
        for file in [
            "hook-cli/src/ops/relay/install.rs",
            "hook-cli/src/ops/relay/install/apply.rs",
            "hook-cli/src/commands/relay/sync.rs",
            "hook-cli/src/ui/relay/install.rs",
        ] {
            let writer = "use crate::ops::relay::install::{SyncReport, sync};\n";
            assert!(check_cli_layers(file, writer).is_empty(), "{file}");
        }
    }

    #[test]
    fn the_relay_writers_exist_and_say_why() {
        let root = crate::root();
        for (path, why) in RELAY_WRITERS {
            let exists = root.join(path).exists() || root.join(format!("{path}.rs")).exists();
            assert!(exists, "{path} in RELAY_WRITERS does not exist");
            assert!(why.len() > 20, "{path}: say why");
        }
    }
}

//! Colour in `hook relay status`, `hook doctor` and `hook stats` (in-process, stdout claiming
//! to be a terminal): on a terminal the status words are coloured; with `NO_COLOR`, `--color
//! never` or on a pipe nothing is; `CLICOLOR_FORCE` and `--color always` colour a pipe; and
//! the colours are all that changes. A real terminal and the real variables are in
//! `tests/it/terminal.rs`.

use super::{Ran, hook, hook_on_a_terminal};
use crate::ops::scene::verboo_guard;
use crate::ui::terminal::ColourEnv;

/// `text` without its SGR sequences (`ESC [ ... m`).
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find('m').expect("an SGR sequence ends with m");
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn status_doctor_and_stats_are_coloured_on_a_terminal_only() {
    let scene = verboo_guard();
    // A relay hook no entry reaches, untrusted: problems in `relay status`.
    scene.write(
        "home/.claude/hook-relay/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 0"}]}]}}"#,
    );
    let (home, project) = (scene.path("home/.claude"), scene.project());
    let (home, project) = (home.to_str().unwrap(), project.to_str().unwrap());
    let place = ["--home", home, "--project", project];
    let commands: [&[&str]; 3] = [
        &["relay", "status", "--dialect", "verboo"],
        &["doctor", "--dialect", "verboo", "--path", "/usr/bin:/bin"],
        &["stats", "--dialect", "verboo"],
    ];
    let no_color = ColourEnv {
        no_color: true,
        force: false,
    };
    let force = ColourEnv {
        no_color: false,
        force: true,
    };
    for command in commands {
        let args = [command, &place[..]].concat();
        let with = |extra: &[&'static str]| [&args[..], extra].concat();
        let piped = hook(&args, "");
        assert!(
            !piped.stdout.contains('\x1b'),
            "{args:?} on a pipe: {piped:?}"
        );
        assert!(!piped.stdout.is_empty(), "{args:?}: {piped:?}");
        let coloured = hook_on_a_terminal(&args, ColourEnv::default());
        assert!(coloured.stdout.contains("\x1b["), "{args:?}: {coloured:?}");
        // Only colour: the same text, the same exit.
        assert_eq!(plain(&coloured.stdout), piped.stdout, "{args:?}");
        assert_eq!(coloured.code, piped.code, "{args:?}");
        let uncoloured: [(&str, Ran); 3] = [
            ("NO_COLOR", hook_on_a_terminal(&args, no_color)),
            ("NO_COLOR over CLICOLOR_FORCE", {
                hook_on_a_terminal(
                    &args,
                    ColourEnv {
                        no_color: true,
                        force: true,
                    },
                )
            }),
            (
                "--color never",
                hook_on_a_terminal(&with(&["--color", "never"]), ColourEnv::default()),
            ),
        ];
        for (why, ran) in uncoloured {
            assert_eq!(ran.stdout, piped.stdout, "{args:?} with {why}");
        }
        let forced: [(&str, Ran); 2] = [
            ("--color always", hook(&with(&["--color", "always"]), "")),
            ("CLICOLOR_FORCE", {
                let mut args = args.clone();
                args.extend(["--color", "auto"]);
                super::hook_on(&args, b"", |terminal| terminal.with_colour_env(force))
            }),
        ];
        for (why, ran) in forced {
            assert!(ran.stdout.contains("\x1b["), "{args:?} with {why}: {ran:?}");
            assert_eq!(plain(&ran.stdout), piped.stdout, "{args:?} with {why}");
        }
    }
}

#[test]
fn relay_status_colours_its_status_words() {
    let scene = verboo_guard();
    // A project's relay hook, untrusted, that no entry reaches.
    scene.write(
        "project/.claude/hook-relay/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 0"}]}]}}"#,
    );
    let (home, project) = (scene.path("home/.claude"), scene.project());
    let (home, project) = (home.to_str().unwrap(), project.to_str().unwrap());
    let out = hook_on_a_terminal(
        &[
            "relay",
            "status",
            "--dialect",
            "verboo",
            "--home",
            home,
            "--project",
            project,
        ],
        ColourEnv::default(),
    );
    let headline = out.stdout.lines().next().unwrap();
    assert!(
        headline.ends_with("): \x1b[31m3 problems stop a guard\x1b[0m"),
        "the state in red: {headline:?}"
    );
    for painted in [
        "\x1b[31muntrusted\x1b[0m",
        "\x1b[2mnever run by the relay\x1b[0m",
        "\x1b[31m! untrusted: the relay skips it\x1b[0m",
        "\x1b[32mfix:\x1b[0m",
    ] {
        assert!(
            out.stdout.contains(painted),
            "{painted:?} in {:?}",
            out.stdout
        );
    }
}

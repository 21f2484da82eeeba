//! The agents' names and dialects, the one agent found with neither flag, and which hooks
//! an agent runs unasked.
#![allow(clippy::unwrap_used)]

use super::*;

#[test]
fn agents_and_dialects_are_told_apart_with_the_flag_to_write() {
    let claude = Dialect::from_agent_name("claude");
    assert_eq!(parse_agent("claude").ok(), claude);
    assert_eq!(parse_agent("Claude-Code").ok(), claude);
    assert_eq!(parse_dialect("verboo").ok(), claude);
    assert_eq!(
        parse_agent("claud").unwrap_err(),
        "unknown agent `claud`: did you mean `claude`? (Claude Code, dialect verboo). The \
         agents: claude or claude-code (Claude Code, dialect verboo), codex (Codex CLI, \
         dialect lime), wuu (Wuu, dialect wuu)"
    );
    assert_eq!(
        parse_dialect("claude").unwrap_err(),
        "`claude` is an agent, not a dialect: write `--agent claude` (Claude Code, dialect \
         verboo), or `--dialect verboo`"
    );
    assert_eq!(
        parse_agent("gemini").unwrap_err(),
        "Gemini CLI runs the guards written for Claude Code, through `hook relay --agent \
         gemini`: here they are Claude Code's relay hooks, write `--agent claude` (with \
         `--relay` where the command reads hook files; its journal lines say `agent`)"
    );
    assert_eq!(
        parse_agent("lime").unwrap_err(),
        "`lime` is a dialect, not an agent: write `--dialect lime`, or `--agent codex` (Codex \
         CLI)"
    );
    assert!(
        parse_dialect("verbo")
            .unwrap_err()
            .starts_with("unknown dialect `verbo`: did you mean `verboo`?")
    );
    assert!(parse_dialect("codx").unwrap_err().starts_with(
        "unknown dialect `codx`: did you mean `--agent codex`? (Codex CLI, dialect lime)"
    ));
    assert!(
        parse_agent("x")
            .unwrap_err()
            .starts_with("unknown agent `x`. The agents: claude")
    );
    assert_eq!(
        parse_dialect("codex").unwrap_err(),
        "`codex` is an agent, not a dialect: write `--agent codex` (Codex CLI, dialect lime)"
    );
    assert_eq!(
        parse_dialect_or_agent("codex").ok(),
        Dialect::from_agent_name("codex")
    );
}

#[test]
fn with_no_agent_named_the_one_with_hook_files_is_found_and_several_are_named() {
    let scene = crate::ops::scene::Scene::new();
    let (project, home) = (Some(scene.project()), Some(scene.path("home")));
    let found = || found(project.clone(), home.clone(), false);
    assert!(
        found()
            .unwrap_err()
            .to_string()
            .starts_with("no agent's hook files here")
    );
    // Only Codex's relay file: Codex, through the relay.
    scene.write("home/hook-relay/config.toml", "");
    let codex = found().unwrap();
    assert_eq!(
        Some(codex.location.dialect),
        Dialect::from_agent_name("codex")
    );
    assert!(codex.location.relay);
    assert_eq!(codex.files, [scene.path("home/hook-relay/config.toml")]);
    // And Claude Code's project settings: both are named, with their files.
    scene.write("project/.claude/settings.json", "{}");
    let error = found().unwrap_err().to_string();
    assert_eq!(
        scene.shown(&error),
        "hook files of several agents are here: give --agent claude \
         ([ROOT]/project/.claude/settings.json) or --agent codex \
         ([ROOT]/home/hook-relay/config.toml)"
    );
}

#[test]
fn only_an_agent_outside_its_dialects_folder_reads_the_relays_hooks() {
    let by_name = |name| Dialect::from_agent_name(name).unwrap();
    assert!(through_relay(by_name("codex")));
    assert!(!through_relay(by_name("claude")));
    assert!(!through_relay(by_name("wuu")));
    assert!(Named::Agent(by_name("codex")).relay(false));
    assert!(!Named::Dialect(by_name("codex")).relay(false));
}

#[test]
fn only_claude_codes_own_hooks_run_without_the_engines_trust() {
    let by_name = |name| Dialect::from_agent_name(name).unwrap();
    let location = |name, relay| Location {
        dialect: by_name(name),
        project: None,
        home: None,
        relay,
    };
    let table = [
        // (agent, named by --agent, relay's hooks, run unasked)
        ("claude", true, false, true),
        ("claude", false, false, false),
        ("claude", true, true, false),
        ("codex", true, true, false),
        ("wuu", true, false, false),
    ];
    for (name, by_agent, relay, unasked) in table {
        assert_eq!(
            untrusted_by_agent(by_agent, &location(name, relay)),
            unasked,
            "{name} by_agent={by_agent} relay={relay}"
        );
    }
}

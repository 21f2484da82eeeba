//! The dialect table's own checks: agent names, rule tables.

use super::*;

#[test]
fn every_agent_name_is_lowercase_and_names_one_dialect() {
    let mut seen = std::collections::BTreeSet::new();
    for dialect in Dialect::ALL {
        let agent = dialect.rules().agent();
        assert!(!agent.names().is_empty(), "{dialect} has an agent name");
        for name in agent.names() {
            assert_eq!(*name, name.to_ascii_lowercase(), "{name} is lowercase");
            assert!(seen.insert(*name), "{name} names one dialect only");
            assert_eq!(Dialect::from_agent_name(name), Some(dialect));
            // An agent's name is never another dialect's name.
            if let Ok(named) = name.parse::<Dialect>() {
                assert_eq!(named, dialect, "{name}");
            }
        }
    }
    assert_eq!(Dialect::from_agent_name("CLAUDE"), Some(Dialect::Verboo));
    assert_eq!(Dialect::from_agent_name("verboo"), None);
}

#[test]
fn each_dialect_knows_its_agents_tools() {
    // (dialect, a tool it must know, a tool of the other agent it must not list)
    let table = [
        (Dialect::Wuu, "Bash", "apply_patch"),
        (Dialect::Verboo, "Bash", "apply_patch"),
        (Dialect::Verboo, "AskUserQuestion", "exec_command"),
        (Dialect::Lime, "apply_patch", "MultiEdit"),
        (Dialect::Lime, "unified_exec", "Read"),
    ];
    for (dialect, known, other) in table {
        let tools = dialect.rules().matching().known_tools();
        assert!(tools.contains(&known), "{dialect} knows {known}");
        assert!(!tools.contains(&other), "{dialect} does not list {other}");
    }
    // wuu and verboo are both modelled on Claude Code's tools (wuu spells them lowercase).
    assert_eq!(
        Dialect::Wuu.rules().matching().known_tools(),
        Dialect::Verboo.rules().matching().known_tools()
    );
    assert_eq!(
        Dialect::Wuu.rules().matching().tool_name("MultiEdit"),
        "multiedit"
    );
    // A lime alias names a tool lime knows.
    for (_, canonical) in Dialect::Lime.rules().matching().tool_aliases() {
        assert!(
            Dialect::Lime
                .rules()
                .matching()
                .known_tools()
                .contains(canonical)
        );
    }
    // No tool is listed twice in a dialect, and all three together are 34 tools.
    let mut all: Vec<&str> = Vec::new();
    for dialect in Dialect::ALL {
        let tools = dialect.rules().matching().known_tools();
        let mut sorted = tools.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), tools.len(), "{dialect} lists a tool twice");
        all.extend(tools);
    }
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 34);
}

//! The adapters against one table: each agent's document finds, adds and removes relay entries
//! and moves its own groups out and back, giving its file back byte for byte; and a stub third
//! agent, which shows what an adapter must write.

use super::*;
use hook_protocol::Event;
use std::path::Path;

/// Per agent: a settings file with one hook of the user's, and the text of its relay entry's
/// command as `add` writes it.
const TABLE: &[(Dialect, &str)] = &[
    (
        Dialect::Verboo,
        "{\n  \"model\": \"m\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          { \"type\": \"command\", \"command\": \"guard\", \"timeout\": 7 }\n        ]\n      }\n    ]\n  }\n}\n",
    ),
    (
        Dialect::Lime,
        "model = \"m\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"guard\"\ntimeout = 7\n",
    ),
];

fn wanted() -> Wanted {
    Wanted {
        event: Event::PreToolUse,
        matcher: Some("Bash".to_owned()),
        timeout: 12,
        on_failure_block: false,
    }
}

/// The command of the relay's `PreToolUse` entry in the user's settings.
fn relay_command(dialect: Dialect) -> String {
    crate::ops::relay::read::entries::relay_command(
        Path::new("/opt/bin/hook"),
        dialect,
        &Event::PreToolUse,
        None,
        RelayScope::User,
        12,
    )
}

#[test]
fn every_agent_the_relay_speaks_for_has_one_adapter() {
    for dialect in Dialect::ALL {
        let table = dialect.rules().agent().relay();
        let adapter = adapter(dialect);
        assert_eq!(table.is_some(), adapter.is_some(), "{dialect}");
        if let (Some(table), Some(adapter)) = (table, adapter) {
            assert_eq!(adapter.dialect(), dialect);
            assert_eq!(adapter.settings(), table, "{dialect}");
        }
    }
    assert!(agent_of(Dialect::Wuu).is_err());
}

#[test]
fn an_entry_added_is_found_and_removed_leaving_the_file_as_it_was() {
    for (dialect, text) in TABLE {
        let command = &relay_command(*dialect);
        let agent = agent_of(*dialect).expect("an adapter");
        let file = Path::new("settings");
        let mut doc = agent.open(text, file).expect("opens");
        assert!(doc.found(*dialect).expect("found").is_empty(), "{dialect}");
        doc.add(&wanted(), command).expect("added");
        let found = doc.found(*dialect).expect("found");
        assert_eq!(found.len(), 1, "{dialect}: {}", doc.text());
        assert_eq!(found[0].command, *command);
        assert_eq!(found[0].matcher.as_deref(), Some("Bash"));
        assert_eq!(found[0].timeout.as_deref(), Some("12"));
        doc.remove(&found[0]).expect("removed");
        assert_eq!(doc.text(), *text, "{dialect}");
    }
}

#[test]
fn own_groups_move_out_and_back_with_their_hooks() {
    for (dialect, text) in TABLE {
        let agent = agent_of(*dialect).expect("an adapter");
        let file = Path::new("settings");
        let mut doc = agent.open(text, file).expect("opens");
        let hooks = doc.hooks().expect("hooks");
        let taken = doc.take_own_groups(*dialect).expect("taken");
        assert_eq!(taken.len(), 1, "{dialect}");
        assert_eq!(taken[0].hooks, hooks, "{dialect}");
        let hook = &taken[0].hooks[0];
        assert_eq!(
            (
                hook.command.as_deref(),
                hook.matcher.as_deref(),
                hook.timeout
            ),
            (Some("guard"), Some("Bash"), Some(7)),
            "{dialect}"
        );
        assert!(doc.hooks().expect("hooks").is_empty(), "{dialect}");
        assert_eq!(
            doc.group_at("PreToolUse", &taken[0].text).expect("read"),
            None
        );
        // Into another file, where it is found again and taken out.
        let mut other = agent.open("", file).expect("opens");
        other
            .append_group("PreToolUse", &taken[0].text)
            .expect("appended");
        let at = other
            .group_at("PreToolUse", &taken[0].text)
            .expect("read")
            .expect("there");
        other.remove_group("PreToolUse", at).expect("removed");
        assert!(other.hooks().expect("hooks").is_empty(), "{dialect}");
    }
}

#[test]
fn only_an_agent_that_keeps_records_has_them() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("settings");
    for adapter in ADAPTERS {
        let records = adapter.hook_records(&file, None).expect("read");
        assert_eq!(
            records.is_some(),
            adapter.dialect().rules().config().trust_state_in_config(),
            "{}",
            adapter.dialect()
        );
    }
}

/// A third agent, as "Adding an agent" in CONTRIBUTING.md starts one: its dialect, its table
/// (here Claude Code's, as a table can only be built in hook-protocol), its document (here
/// Claude Code's JSON, the shape Gemini CLI and Qwen Code share) and its records (none).
mod stub_agent {
    use super::super::claude::document::JsonDoc;
    use super::*;

    pub(super) struct Stub;

    impl Agent for Stub {
        fn dialect(&self) -> Dialect {
            Dialect::Wuu
        }

        fn settings(&self) -> &'static RelayAgent {
            super::super::claude::Claude.settings()
        }

        fn open(&self, text: &str, file: &Path) -> Result<Box<dyn SettingsDoc>> {
            Ok(Box::new(JsonDoc::new(text, file)?))
        }

        fn hook_records(&self, _: &Path, _: Option<&Path>) -> Result<Option<HookRecords>> {
            Ok(None)
        }
    }
}

#[test]
fn a_stub_third_agent_needs_only_the_adapter() {
    let stub: &dyn Agent = &stub_agent::Stub;
    let mut doc = stub.open("", Path::new("settings.json")).expect("opens");
    let command = relay_command(Dialect::Verboo);
    doc.add(&wanted(), &command).expect("added");
    assert_eq!(doc.hooks().expect("hooks").len(), 1);
    assert_eq!(doc.found(Dialect::Verboo).expect("found").len(), 1);
    assert!(
        stub.hook_records(Path::new("s"), None)
            .expect("read")
            .is_none()
    );
}

//! Native handlers under trust: the library that is hashed (by `hook list`/`hook trust` and by
//! the engine's gate) is the library that is loaded, whatever the event's `cwd`, in every
//! dialect; a library swapped after trust is `modified` and does not run; a library that is not
//! a regular file or is too large is hashed as unreadable, without being read.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

#[path = "../../../hook-exec/tests/it/support/raw_plugin.rs"]
mod raw_plugin;

use std::path::{Path, PathBuf};

use crate::common::{Setup, pre_tool_use};
use hook_protocol::{Decision, Dialect, Outcome, RunStatus, SkipReason};
use hook_trust::{Grant, TrustGate, TrustStatus};
use raw_plugin::{Answer, raw_plugin};

const GOOD: Answer = Answer::ok("reviewed");
const EVIL: Answer = Answer::block("never reviewed");

/// The project file of `setup`'s dialect with one native `PreToolUse` handler, `library` as
/// written.
fn write_project_config(setup: &Setup, library: &str) {
    let text = match setup.dialect {
        Dialect::Wuu => serde_json::json!({"hooks": {"PreToolUse": [
            {"matcher": "", "type": "native", "library": library}
        ]}})
        .to_string(),
        Dialect::Verboo => serde_json::json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "native", "library": library}]}
        ]}})
        .to_string(),
        Dialect::Lime => format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"native\"\nlibrary = {library:?}\n"
        ),
    };
    let path = setup.project_file();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Copies `plugin` to `path` (through a rename, as a build or an attacker would replace it).
fn place(plugin: Answer, path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let staged = path.with_extension("staged");
    std::fs::copy(raw_plugin(plugin), &staged).unwrap();
    std::fs::rename(&staged, path).unwrap();
}

/// What `hook trust --all` does: trusts every handler with its hash as `hook list` shows it.
fn trust_all(setup: &Setup) {
    let loaded = setup.load();
    let view = setup.view();
    let candidates: Vec<_> = loaded
        .registry
        .handlers()
        .iter()
        .map(|h| view.candidate(h))
        .collect();
    view.trust(setup.store().as_ref(), &candidates).unwrap();
}

/// What `hook list` says of the one handler.
fn listed_status(setup: &Setup) -> TrustStatus {
    let loaded = setup.load();
    setup.view().evaluate(&loaded.registry.handlers()[0]).status
}

/// Dispatches a `Bash` `PreToolUse` whose `cwd` is `cwd` through the trust gate, as `hook run`.
fn dispatch_from(setup: &Setup, cwd: &Path) -> Outcome {
    let loaded = setup.load();
    let engine = hook_exec::Engine::new(loaded.registry).with_gate(TrustGate::new(setup.view()));
    let input = pre_tool_use(setup.dialect, cwd);
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(engine.dispatch(&input))
}

/// The folder of the project file, against which its relative `library` resolves.
fn declaring_folder(setup: &Setup) -> PathBuf {
    setup.project_file().parent().unwrap().to_path_buf()
}

#[test]
fn the_event_cwd_never_chooses_the_library() {
    for dialect in Dialect::ALL {
        let setup = Setup::new(dialect);
        write_project_config(&setup, "lib/hook.so");
        // The reviewed library, where its file declares it (and where the project root would
        // put it); a different one under the folder the event comes from.
        place(GOOD, &declaring_folder(&setup).join("lib/hook.so"));
        place(GOOD, &setup.project().join("lib/hook.so"));
        let sub = setup.project().join("sub");
        place(EVIL, &sub.join("lib/hook.so"));

        let loaded = setup.load();
        let handler = &loaded.registry.handlers()[0];
        assert_eq!(
            handler.library_path.as_deref(),
            Some(declaring_folder(&setup).join("lib/hook.so").as_path()),
            "{dialect}"
        );
        assert_eq!(listed_status(&setup), TrustStatus::Untrusted, "{dialect}");
        trust_all(&setup);
        assert_eq!(listed_status(&setup), TrustStatus::Trusted, "{dialect}");

        for cwd in [setup.project(), sub.clone()] {
            let outcome = dispatch_from(&setup, &cwd);
            let run = &outcome.runs[0];
            assert_eq!(run.status, RunStatus::Ok, "{dialect} {cwd:?}: {outcome:#?}");
            assert_eq!(run.exit_code, Some(0), "{dialect} {cwd:?}: {outcome:#?}");
            assert_eq!(outcome.decision, Decision::Continue, "{dialect} {cwd:?}");
        }
    }
}

#[test]
fn a_library_swapped_after_trust_is_modified_and_does_not_run() {
    for dialect in Dialect::ALL {
        let setup = Setup::new(dialect);
        write_project_config(&setup, "lib/hook.so");
        let library = declaring_folder(&setup).join("lib/hook.so");
        place(GOOD, &library);
        trust_all(&setup);
        assert_eq!(listed_status(&setup), TrustStatus::Trusted, "{dialect}");
        assert_eq!(
            dispatch_from(&setup, &setup.project()).runs[0].status,
            RunStatus::Ok,
            "{dialect}"
        );

        place(EVIL, &library);
        // `hook list` and the run agree: modified, skipped.
        assert_eq!(listed_status(&setup), TrustStatus::Modified, "{dialect}");
        let outcome = dispatch_from(&setup, &setup.project());
        let run = &outcome.runs[0];
        assert_eq!(run.status, RunStatus::Skipped, "{dialect}: {outcome:#?}");
        assert_eq!(run.skip_reason, Some(SkipReason::Modified), "{dialect}");
        assert_eq!(outcome.decision, Decision::Continue, "{dialect}");

        // Reviewed and trusted again: the new library runs.
        trust_all(&setup);
        assert_eq!(listed_status(&setup), TrustStatus::Trusted, "{dialect}");
        let outcome = dispatch_from(&setup, &setup.project());
        assert_eq!(outcome.decision, Decision::Block, "{dialect}: {outcome:#?}");
    }
}

#[test]
fn a_plugin_library_resolves_against_the_plugin_folder() {
    let setup = Setup::new(Dialect::Verboo);
    std::fs::write(setup.user_file(), r#"{"enabledPlugins": {"guard": true}}"#).unwrap();
    let root = setup.home().join("plugins/guard");
    crate::common::write(
        &root,
        "plugin.json",
        r#"{"name": "guard", "version": "1.0.0"}"#,
    );
    crate::common::write(
        &root,
        "hooks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "native", "library": "lib/hook.so"}]}]}}"#,
    );
    place(GOOD, &root.join("lib/hook.so"));
    place(EVIL, &setup.project().join("lib/hook.so"));
    let loaded = setup.load();
    assert_eq!(
        loaded.registry.handlers()[0].library_path.as_deref(),
        Some(root.join("lib/hook.so").as_path())
    );
    trust_all(&setup);
    let outcome = dispatch_from(&setup, &setup.project());
    assert_eq!(outcome.runs[0].exit_code, Some(0), "{outcome:#?}");
}

#[test]
fn unreadable_libraries_are_never_trusted_and_never_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.so");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let huge = dir.path().join("huge.so");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(hook_exec::native::LIBRARY_SIZE_CAP + 1)
        .unwrap();
    for library in [PathBuf::from("/dev/zero"), fifo, huge] {
        let setup = Setup::new(Dialect::Verboo);
        write_project_config(&setup, &library.display().to_string());
        let loaded = setup.load();
        let handler = &loaded.registry.handlers()[0];
        let trust = setup.view().evaluate(handler);
        assert_eq!(trust.files.len(), 1, "{trust:#?}");
        assert_eq!(trust.files[0].change, hook_trust::FileChange::Unreadable);
        assert!(trust.current_files().is_empty(), "{trust:#?}");
        // Trusting it is refused, naming the library; nothing is written.
        let view = setup.view();
        let error = view
            .trust(setup.store().as_ref(), &[view.candidate(handler)])
            .unwrap_err();
        assert!(
            matches!(error, hook_trust::GrantError::Library { .. }),
            "{error}"
        );
        assert!(error.to_string().contains("nothing was trusted"), "{error}");
        assert!(setup.store().load().unwrap().is_empty());
        // A record of its hash alone (another tool's) leaves it modified: skipped, saying why.
        setup
            .store()
            .set_trusted(&[Grant::new(&trust.key, &trust.hash)])
            .unwrap();
        assert_eq!(listed_status(&setup), TrustStatus::Modified);
        let outcome = dispatch_from(&setup, &setup.project());
        let run = &outcome.runs[0];
        assert_eq!(run.skip_reason, Some(SkipReason::Modified), "{outcome:#?}");
        let error = run.error.as_deref().unwrap();
        assert!(
            error.contains("not a regular file") || error.contains("limit"),
            "{error}"
        );
    }
}

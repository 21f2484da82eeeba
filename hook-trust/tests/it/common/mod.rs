//! Helpers shared by the integration tests: real files in temporary folders.

#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};

use hook_config::{Environment, Handler, LoadOptions, Loaded, load};
use hook_protocol::input::{EventInput, input_from_value};
use hook_protocol::{Dialect, Outcome};
use hook_test_support::Scene;
use hook_test_support::events::{project_file, user_file};
use hook_trust::{HashContext, Policy, TrustStore, TrustView, store_for};

pub use hook_test_support::fs::write_at as write;

/// A home, a project and a managed file (which may not exist) under one temporary folder.
pub struct Setup {
    pub scene: Scene,
    pub dialect: Dialect,
}

impl Setup {
    pub fn new(dialect: Dialect) -> Self {
        Setup {
            scene: Scene::new(),
            dialect,
        }
    }

    pub fn home(&self) -> PathBuf {
        self.scene.home()
    }

    pub fn project(&self) -> PathBuf {
        self.scene.project()
    }

    pub fn managed(&self) -> PathBuf {
        self.scene.path("managed.toml")
    }

    /// The user file of the dialect.
    pub fn user_file(&self) -> PathBuf {
        self.home().join(user_file(self.dialect))
    }

    /// The project file of the dialect.
    pub fn project_file(&self) -> PathBuf {
        self.project().join(project_file(self.dialect))
    }

    pub fn options(&self) -> LoadOptions {
        let managed = match self.dialect {
            Dialect::Verboo => self.scene.path("managed.json"),
            _ => self.managed(),
        };
        LoadOptions::new(self.dialect, Environment::empty())
            .with_managed_file(managed)
            .with_home(self.home())
            .with_project(self.project())
    }

    pub fn load(&self) -> Loaded {
        let loaded = load(&self.options()).expect("load");
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        loaded
    }

    pub fn store(&self) -> Box<dyn TrustStore> {
        store_for(self.dialect, &self.home())
    }

    pub fn view(&self) -> TrustView {
        TrustView::load(
            self.store().as_ref(),
            Policy::for_dialect(self.dialect),
            HashContext::with_base_dir(self.project()),
        )
    }

    /// Trusts the handlers whose command is `command`, as they are now.
    pub fn trust(&self, command: &str) {
        let loaded = self.load();
        let view = self.view();
        let candidates: Vec<_> = loaded
            .registry
            .handlers()
            .iter()
            .filter(|h| h.config.command.as_deref() == Some(command))
            .map(|h| view.candidate(h))
            .collect();
        assert!(!candidates.is_empty(), "no handler runs {command}");
        view.trust(self.store().as_ref(), &candidates)
            .expect("trust");
    }

    /// Dispatches a `PreToolUse` of `Bash` through an engine gated by the store.
    pub fn dispatch(&self) -> Outcome {
        let loaded = self.load();
        let gate = hook_trust::TrustGate::new(self.view());
        let engine = hook_exec::Engine::new(loaded.registry).with_gate(gate);
        let input = pre_tool_use(self.dialect, &self.project());
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
            .block_on(engine.dispatch(&input))
    }
}

/// A `Bash` `PreToolUse` event in `dialect`, with `cwd` set.
pub fn pre_tool_use(dialect: Dialect, cwd: &Path) -> EventInput {
    let value = serde_json::json!({
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "transcript_path": null,
        "model": "m",
        "permission_mode": "default",
        "turn_id": "t",
        "tool_name": if dialect == Dialect::Wuu { "bash" } else { "Bash" },
        "tool_input": {"command": "ls"},
        "tool_use_id": "u",
        "cwd": cwd.display().to_string(),
    });
    input_from_value(dialect, value).expect("valid input")
}

/// The handler running `command`.
pub fn handler<'a>(loaded: &'a Loaded, command: &str) -> &'a Handler {
    loaded
        .registry
        .handlers()
        .iter()
        .find(|h| h.config.command.as_deref() == Some(command))
        .expect("handler present")
}

/// `(status, skip_reason)` of each run, as JSON strings.
pub fn runs(outcome: &Outcome) -> Vec<(String, Option<String>)> {
    outcome
        .runs
        .iter()
        .map(|run| {
            let status = serde_json::to_value(run.status).expect("status");
            let reason = run
                .skip_reason
                .map(|r| serde_json::to_value(r).expect("reason"));
            (
                status.as_str().unwrap_or_default().to_owned(),
                reason.and_then(|r| r.as_str().map(str::to_owned)),
            )
        })
        .collect()
}

/// A lime group of one command hook on `PreToolUse` `Bash`.
pub fn lime_hook(command: &str) -> String {
    format!(
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"{command}\"\n"
    )
}

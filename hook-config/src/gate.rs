//! The gate the engine asks before running a selected handler. It lives here, beside
//! [`Handler`], so that `hook-exec` (which asks it) and `hook-trust` (which implements it) both
//! see it without one depending on the other.

use std::path::{Path, PathBuf};

use hook_protocol::SkipReason;

use crate::Handler;

/// Where a handler is about to run: the folder its command starts in (the event's `cwd`) and
/// the project it belongs to. A gate that trusts the files a command names resolves them from
/// here ([`Gate::check_at`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunPlace {
    /// The folder the command runs in: relative paths in it resolve against this.
    pub cwd: PathBuf,
    /// The project folder (`$CLAUDE_PROJECT_DIR`); the `cwd` when `None`.
    pub project_dir: Option<PathBuf>,
}

impl RunPlace {
    /// A handler running in `cwd`, in the project `project_dir` (the `cwd` when `None`).
    pub fn new(cwd: impl Into<PathBuf>, project_dir: Option<PathBuf>) -> Self {
        RunPlace {
            cwd: cwd.into(),
            project_dir,
        }
    }

    /// The project folder: [`RunPlace::project_dir`], else the `cwd`.
    pub fn project(&self) -> &Path {
        self.project_dir.as_deref().unwrap_or(&self.cwd)
    }
}

/// Decides whether a selected handler may run (trust, disabled state). The trust crate (`hook_trust::TrustGate`)
/// supplies the real one; [`AllowAll`] lets everything run.
pub trait Gate: Send + Sync {
    /// `None` when the handler may run, else why not and a one-line explanation (the CLI's
    /// gate also names the command that would let it run).
    fn check(&self, handler: &Handler) -> Option<(SkipReason, String)>;

    /// [`Gate::check`] for a handler about to run at `place`: the engine asks this for every
    /// handler but a `native` one. A gate that trusts the files a command names reads them
    /// from `place` (`hook_trust::TrustGate` does). The default ignores the place.
    fn check_at(&self, handler: &Handler, place: &RunPlace) -> Option<(SkipReason, String)> {
        let _ = place;
        self.check(handler)
    }

    /// [`Gate::check`] for a `native` handler whose library the engine has just read, once:
    /// `library_sha256` is the hex SHA-256 of the bytes it will load if the handler may run
    /// (`None` when the library could not be read; the run then fails with why). A gate that
    /// hashes libraries must decide on this digest and never read the file again, so what it
    /// approves is what runs. The default ignores the digest and calls [`Gate::check`].
    fn check_native(
        &self,
        handler: &Handler,
        library_sha256: Option<&str>,
    ) -> Option<(SkipReason, String)> {
        let _ = library_sha256;
        self.check(handler)
    }
}

/// A gate that lets every handler run.
#[derive(Debug, Clone, Copy, Default)]
pub struct AllowAll;

impl Gate for AllowAll {
    fn check(&self, _: &Handler) -> Option<(SkipReason, String)> {
        None
    }
}

/// The gate of an engine that was given none: a hook whose layer needs trust in the dialect
/// (lime: every hook but managed ones; wuu and verboo: project, local and plugin hooks) is
/// skipped as `untrusted`, with a message saying the engine has no trust gate; the others
/// run. Forgetting a gate therefore never runs a project's hooks unreviewed; an embedder who
/// wants every hook to run asks for [`AllowAll`] by name.
#[derive(Debug, Clone, Copy)]
pub struct RefuseUntrusted {
    dialect: hook_protocol::Dialect,
}

impl RefuseUntrusted {
    /// The gate for `dialect`'s trust layers.
    pub fn new(dialect: hook_protocol::Dialect) -> Self {
        RefuseUntrusted { dialect }
    }
}

impl Gate for RefuseUntrusted {
    fn check(&self, handler: &Handler) -> Option<(SkipReason, String)> {
        let layer = handler.source.layer;
        let needs_trust = layer != hook_protocol::Layer::Managed
            && self
                .dialect
                .rules()
                .config()
                .trust_layers()
                .contains(&layer);
        needs_trust.then(|| {
            (
                SkipReason::Untrusted,
                format!(
                    "{} needs trust and this engine has no trust gate: build it with \
                     `hook_exec::Hooks::load` (or `.with_gate(hook_trust::TrustGate::new(...))`), \
                     or pass `.with_gate(AllowAll)` to run every hook",
                    handler.key
                ),
            )
        })
    }
}

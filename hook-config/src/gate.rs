//! The gate the engine asks before running a selected handler. It lives here, beside
//! [`Handler`], so that `hook-exec` (which asks it) and `hook-trust` (which implements it) both
//! see it without one depending on the other.

use hook_protocol::SkipReason;

use crate::Handler;

/// Decides whether a selected handler may run (trust, disabled state). The trust crate (`hook_trust::TrustGate`)
/// supplies the real one; [`AllowAll`] lets everything run.
pub trait Gate: Send + Sync {
    /// `None` when the handler may run, else why not and a one-line explanation (the CLI's
    /// gate also names the command that would let it run).
    fn check(&self, handler: &Handler) -> Option<(SkipReason, String)>;

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

//! Transitional: the old paths other areas still call while they move (deleted at the merge).

use hook_exec::Hooks;

pub(crate) use crate::ops::dispatch::Signals;
pub(crate) use crate::ops::location::Location;

/// Transitional: [`crate::ui::diagnostics::print`].
pub(crate) fn print_diagnostics(diagnostics: &[hook_config::Diagnostic]) {
    crate::ui::diagnostics::print(
        &crate::ui::Printer::new(crate::ui::Verbosity::Normal),
        diagnostics,
    );
}

/// Transitional: [`crate::ops::dispatch::prepare`] with `location`'s refusal phrasing.
pub(crate) fn prepare(
    location: &Location,
    hooks: Hooks,
    options: hook_exec::EngineOptions,
) -> Hooks {
    crate::ops::dispatch::prepare(hooks, options, crate::ui::trust::refusal_phrasing(location))
}

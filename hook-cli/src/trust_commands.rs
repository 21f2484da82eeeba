//! Transitional: the old paths other areas still call while they move (deleted at the merge).

pub(crate) use crate::ui::trust::{refusal_phrasing, skip_warnings};

/// Transitional: [`crate::ui::trust::say_if_link`].
pub(crate) fn say_if_link(path: &std::path::Path) {
    crate::ui::trust::say_if_link(&crate::ui::Printer::new(crate::ui::Verbosity::Normal), path);
}

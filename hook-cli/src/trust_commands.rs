//! Transitional: the old paths other areas still call while they move (deleted at the merge).

pub(crate) use crate::ui::trust::refusal_phrasing;

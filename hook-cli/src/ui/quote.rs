//! Transitional: the old path of [`crate::shell::quote`] (deleted at the merge).

pub(crate) use crate::shell::quote as shell_quote;

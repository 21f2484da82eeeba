//! Transitional: the old paths doctor still calls while it moves (deleted at the merge).

pub(crate) use crate::ops::expectations::{Scope, default_file, run_with_path, with_relay};

//! `hook untrust`: take trust away from hooks (their disabled state stays).

use anyhow::Result;

use crate::args::KeysArgs;
use crate::ops::trust::{Action, apply};
use crate::ui::{Printer, Status, trust as show};

/// `hook untrust KEY...` or `--all`.
pub(crate) fn exec(args: KeysArgs, printer: &Printer) -> Result<Status> {
    let selection = args.selection()?;
    let loaded = args.location.load(printer)?;
    show::changed(printer, &apply(Action::Untrust, &loaded, &selection)?);
    Ok(Status::Success)
}

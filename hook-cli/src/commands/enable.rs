//! `hook enable`: enable disabled hooks (their trust stays).

use anyhow::Result;

use crate::args::KeysArgs;
use crate::ops::trust::{Action, apply};
use crate::ui::{Printer, Status, trust as show};

/// `hook enable KEY...` or `--all`.
pub(crate) fn exec(args: KeysArgs, printer: &Printer) -> Result<Status> {
    let selection = args.selection()?;
    let loaded = args.location.load(printer)?;
    show::changed(printer, &apply(Action::Enable, &loaded, &selection)?);
    Ok(Status::Success)
}

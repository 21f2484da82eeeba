//! `hook trust`: trust hooks as they are now, by key or `--all`, or walk them with `--review`
//! (JSON with `--json`, trust / skip / quit on a terminal).

use anyhow::{Result, bail};
use hook_trust::{TrustView, store_for_discovery};

use crate::args::KeysArgs;
use crate::ops::input::Stdin;
use crate::ops::location::Location;
use crate::ops::review;
use crate::ops::trust::{Action, Selection, apply};
use crate::ui::review::{Answer, ask, show as show_hook};
use crate::ui::{Printer, Status, say, trust as show};

/// `hook trust KEY...`, `--all` or `--review [--json]` (its answers read from `stdin`).
pub(crate) fn exec(args: KeysArgs, printer: &Printer, stdin: Stdin) -> Result<Status> {
    if args.review {
        return review(&args.location.location()?, args.json, printer, stdin);
    }
    let selection = Selection {
        keys: args.keys.clone(),
        all: args.all,
    };
    let loaded = args.location.load(printer)?;
    show::changed(printer, &apply(Action::Trust, &loaded, &selection)?);
    Ok(Status::Success)
}

/// `hook trust --review [--json]`.
fn review(
    location: &Location,
    json: bool,
    printer: &Printer,
    mut answers: Stdin,
) -> Result<Status> {
    let loaded = location.load()?;
    crate::ui::diagnostics::print(printer, &loaded.diagnostics);
    let view = TrustView::for_discovery(&loaded.discovery);
    if let Some(error) = view.store_error() {
        bail!("{error}");
    }
    let (items, pending) = review::collect(&loaded, &view)?;
    if json {
        printer.exact_line(&serde_json::to_string_pretty(&serde_json::json!({
            "dialect": location.dialect.to_string(),
            "hooks": items,
        }))?);
        return Ok(Status::Success);
    }
    if items.is_empty() {
        say!(
            printer,
            "every hook that needs trust has it: nothing to review"
        );
        return Ok(Status::Success);
    }
    if !(answers.is_terminal() && printer.stdout_is_terminal()) {
        let flags = location.flags();
        bail!(
            "hook trust --review asks about each hook, and needs a terminal for it; read the review with `hook trust --dialect {}{flags} --review --json`, then trust hooks by key (`hook trust --dialect {}{flags} KEY...`) or all of them (`--all`)",
            location.dialect,
            location.dialect
        );
    }
    let store = store_for_discovery(&loaded.discovery);
    let (mut trusted, mut skipped) = (0, 0);
    for (index, (item, candidate)) in items.iter().zip(&pending).enumerate() {
        show_hook(printer, index + 1, items.len(), item);
        match ask(printer, &mut answers)? {
            Answer::Trust => {
                // The bytes shown are the bytes trusted: the digests and copies come from the
                // one read the diff was made of.
                match view.trust(store.as_ref(), std::slice::from_ref(candidate)) {
                    Ok(done) => {
                        for warning in &done.copy_warnings {
                            say!(printer, "warning: {warning}");
                        }
                        for granted in &done.granted {
                            say!(printer, "trusted {}", granted.describe());
                        }
                        trusted += 1;
                    }
                    Err(hook_trust::GrantError::Store(error)) => return Err(error.into()),
                    Err(error) => {
                        say!(printer, "not trusted: {error}");
                        skipped += 1;
                    }
                }
            }
            Answer::Skip => {
                say!(printer, "skipped {}", item.key);
                skipped += 1;
            }
            Answer::Quit => break,
        }
    }
    let left = items.len() - trusted - skipped;
    say!(
        printer,
        "{trusted} trusted, {skipped} skipped, {left} not reviewed"
    );
    say!(printer, "store: {}", store.location().display());
    show::say_if_link(printer, store.location());
    Ok(Status::Success)
}

//! Reading what the user gives: a file or stdin, bounded; an event's name.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result, bail};
use hook_protocol::{Dialect, Event};

/// The event named on the command line, if `dialect` knows it.
pub(crate) fn known_event(dialect: Dialect, name: &str) -> Result<Event> {
    let event = Event::from_name(name);
    if event.is_known_in(dialect) {
        return Ok(event);
    }
    let known: Vec<&str> = dialect.events().iter().map(Event::as_str).collect();
    let near = known.iter().find(|k| k.eq_ignore_ascii_case(name));
    match near {
        Some(near) => bail!("unknown {dialect} event `{name}`: did you mean `{near}`?"),
        None => bail!(
            "unknown {dialect} event `{name}`; {dialect} events are: {}",
            known.join(", ")
        ),
    }
}

/// The bytes of `file`, or of stdin when it is absent or `-`, with a name for messages.
/// `what` names the content and `flag` how to give a file instead, for the error messages.
pub(crate) fn read_input(file: Option<&Path>, what: &str, flag: &str) -> Result<(Vec<u8>, String)> {
    match file {
        Some(path) if path.as_os_str() != "-" => {
            if path.is_dir() {
                bail!(
                    "{} is a directory: give the file that holds {what}",
                    path.display()
                );
            }
            let file = std::fs::File::open(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let bytes = read_bounded(file, &path.display().to_string())?;
            Ok((bytes, path.display().to_string()))
        }
        _ => {
            let bytes = read_bounded(std::io::stdin().lock(), "stdin")?;
            if bytes.trim_ascii().is_empty() {
                bail!("stdin is empty: pipe {what} in, or give {flag}");
            }
            Ok((bytes, "<stdin>".to_owned()))
        }
    }
}

/// All of `reader`, refused past [`hook_protocol::MAX_AGENT_EVENT_BYTES`] (64 MiB) without
/// reading more than one byte beyond it: an event or a hook's output is never read without
/// bound. `origin` names it in the error.
pub(crate) fn read_bounded(reader: impl Read, origin: &str) -> Result<Vec<u8>> {
    let limit = hook_protocol::MAX_AGENT_EVENT_BYTES;
    let mut bytes = Vec::new();
    reader
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {origin}"))?;
    if bytes.len() > limit {
        bail!("{origin} is over {limit} bytes");
    }
    Ok(bytes)
}

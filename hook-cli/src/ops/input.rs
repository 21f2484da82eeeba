//! Reading what the user gives: a file or stdin, bounded; an event's name.

use std::io::{BufRead, IsTerminal as _, Read};
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

/// Every event any dialect knows, each once, for shell completions of `--event` (the
/// command checks the name against its dialect: [`known_event`]).
pub(crate) fn event_values() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for event in Dialect::ALL.iter().flat_map(|dialect| dialect.events()) {
        if !all.contains(&event.as_str()) {
            all.push(event.as_str());
        }
    }
    all
}

/// The bytes of `file`, or of `stdin` when it is absent or `-`, with a name for messages.
/// `what` names the content and `flag` how to give a file instead, for the error messages.
pub(crate) fn read_input(
    file: Option<&Path>,
    stdin: &mut Stdin,
    what: &str,
    flag: &str,
) -> Result<(Vec<u8>, String)> {
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
            let bytes = stdin.read_all("stdin")?;
            if bytes.trim_ascii().is_empty() {
                bail!("stdin is empty: pipe {what} in, or give {flag}");
            }
            Ok((bytes, "<stdin>".to_owned()))
        }
    }
}

/// What a command reads as its stdin: the process's own ([`Stdin::process`]), or the bytes an
/// in-process test gives. `main` builds it and hands it to the commands that read stdin.
pub(crate) struct Stdin {
    reader: Box<dyn BufRead>,
    is_terminal: bool,
}

impl Stdin {
    /// The process's stdin.
    pub(crate) fn process() -> Stdin {
        let stdin = std::io::stdin();
        Stdin::new(stdin.lock(), stdin.is_terminal())
    }

    /// `reader`, a terminal or not.
    pub(crate) fn new(reader: impl BufRead + 'static, is_terminal: bool) -> Stdin {
        Stdin {
            reader: Box::new(reader),
            is_terminal,
        }
    }

    /// Whether it is a terminal.
    pub(crate) fn is_terminal(&self) -> bool {
        self.is_terminal
    }

    /// All of what is left of it, bounded ([`read_bounded`]; `origin` names it in the error).
    pub(crate) fn read_all(&mut self, origin: &str) -> Result<Vec<u8>> {
        read_bounded(&mut self.reader, origin)
    }
}

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.reader.read(buf)
    }
}

impl BufRead for Stdin {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.reader.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.reader.consume(amount);
    }
}

/// All of `reader`, refused past [`hook_protocol::input::MAX_AGENT_EVENT_BYTES`] (64 MiB) without
/// reading more than one byte beyond it: an event or a hook's output is never read without
/// bound. `origin` names it in the error.
pub(crate) fn read_bounded(reader: impl Read, origin: &str) -> Result<Vec<u8>> {
    let limit = hook_protocol::input::MAX_AGENT_EVENT_BYTES;
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

/// An event for `hook run`, read from a file or stdin.
#[derive(Debug)]
pub(crate) struct RunInput {
    /// The event, with `hook_event_name` and `cwd` filled in when absent.
    pub(crate) input: hook_protocol::input::EventInput,
    /// When the event holds what a real agent sends but serde_json will not read (a lone
    /// surrogate escape, nesting past 128 levels): the bytes as given, for the hooks (read as
    /// `hook relay` reads them).
    pub(crate) bytes: Option<std::sync::Arc<[u8]>>,
    /// What was tolerated to read those bytes (warnings).
    pub(crate) tolerated: Vec<String>,
}

/// Reads `hook run`'s event of `event` from `file` (`stdin` when `None`); `project` is the
/// `cwd` filled in when the event has none.
pub(crate) fn run_input(
    dialect: Dialect,
    event: &str,
    file: Option<&Path>,
    stdin: &mut Stdin,
    project: impl FnOnce() -> Result<std::path::PathBuf>,
) -> Result<RunInput> {
    use anyhow::Context as _;
    use serde_json::Value;
    let event = known_event(dialect, event)?;
    let (bytes, origin) = read_input(file, stdin, "the event JSON", "--input FILE")?;
    let mut value: Value = match serde_json::from_slice(&bytes) {
        Ok(value) => value,
        Err(error) => {
            let Ok(agent_event) =
                hook_protocol::input::read_agent_event(dialect, &bytes, Some(&event))
            else {
                return Err(error).with_context(|| format!("{origin} is not valid JSON"));
            };
            return Ok(RunInput {
                input: agent_event.input,
                bytes: Some(bytes.into()),
                tolerated: agent_event
                    .tolerated
                    .iter()
                    .map(ToString::to_string)
                    .collect(),
            });
        }
    };
    let object = value
        .as_object_mut()
        .context("the event input must be a JSON object")?;
    match object.get("hook_event_name").and_then(Value::as_str) {
        None => {
            object.insert("hook_event_name".into(), event.as_str().into());
        }
        Some(name) if name != event.as_str() => {
            bail!("the input's hook_event_name is `{name}` but --event is `{event}`");
        }
        Some(_) => {}
    }
    if !object.contains_key("cwd") {
        object.insert("cwd".into(), project()?.display().to_string().into());
    }
    let input =
        hook_protocol::input::input_from_value(dialect, value).context("invalid event input")?;
    Ok(RunInput {
        input,
        bytes: None,
        tolerated: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::ops::scene::Scene;

    #[test]
    fn an_unknown_event_names_the_near_one_or_the_list() {
        assert_eq!(
            known_event(Dialect::Verboo, "Stop").unwrap().as_str(),
            "Stop"
        );
        let near = known_event(Dialect::Verboo, "pretooluse").unwrap_err();
        assert_eq!(
            near.to_string(),
            "unknown verboo event `pretooluse`: did you mean `PreToolUse`?"
        );
        let far = known_event(Dialect::Lime, "Notification").unwrap_err();
        assert!(
            far.to_string().contains("lime events are: SessionStart"),
            "{far}"
        );
    }

    #[test]
    fn input_is_read_bounded() {
        let limit = hook_protocol::input::MAX_AGENT_EVENT_BYTES;
        let just = read_bounded(std::io::repeat(b' ').take(limit as u64), "stdin").unwrap();
        assert_eq!(just.len(), limit);
        let over = read_bounded(std::io::repeat(b' ').take(limit as u64 + 1), "stdin");
        assert_eq!(
            over.unwrap_err().to_string(),
            format!("stdin is over {limit} bytes")
        );
    }

    #[test]
    fn a_run_input_gets_its_event_name_and_cwd_and_refuses_another_event() {
        let scene = Scene::new();
        // `hook run --input FILE --event EVENT`, nothing on stdin.
        let run = |event: &str, file: &Path| {
            let mut no_stdin = Stdin::new(&b""[..], false);
            run_input(Dialect::Verboo, event, Some(file), &mut no_stdin, || {
                Ok(scene.project())
            })
        };
        let file = scene.write(
            "event.json",
            r#"{"session_id": "s", "transcript_path": "/t"}"#,
        );
        let read = run("SessionEnd", &file);
        // SessionEnd needs its `reason`: the error says which field.
        let error = read.unwrap_err();
        assert!(format!("{error:#}").contains("reason"), "{error:#}");
        let file = scene.write(
            "event.json",
            r#"{"session_id": "s", "transcript_path": "/t", "reason": "other"}"#,
        );
        let read = run("SessionEnd", &file).unwrap();
        let value = read.input.to_value();
        assert_eq!(value["hook_event_name"], "SessionEnd");
        assert_eq!(value["cwd"], scene.project().display().to_string());
        assert!(read.bytes.is_none() && read.tolerated.is_empty());
        let other = scene.write(
            "other.json",
            r#"{"session_id": "s", "transcript_path": "/t", "hook_event_name": "Stop"}"#,
        );
        let error = run("SessionEnd", &other).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the input's hook_event_name is `Stop` but --event is `SessionEnd`"
        );
        let folder = run("Stop", &scene.project()).unwrap_err();
        assert!(
            folder
                .to_string()
                .ends_with("is a directory: give the file that holds the event JSON"),
            "{folder}"
        );
    }
}

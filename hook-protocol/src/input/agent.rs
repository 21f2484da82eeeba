//! Reading an event the way a guard in front of a real agent must: whatever the agent really
//! sends is read, and only what the engine needs has to make sense.
//!
//! [`parse_input`](super::parse_input) is strict: it is what `hook run` and the SDK use, and a
//! wrong input there is the caller's mistake, best refused with the field named. An agent that
//! calls the engine as its hook (`hook relay`) is not the caller's to fix, and refusing its
//! event would let the tool call through unguarded. Claude Code and Codex send, among others:
//!
//! - **lone surrogate escapes** (`"x\ud800"`) in model-written strings: valid JSON text, which
//!   serde_json will not turn into a Rust `String`;
//! - **deep nesting** in an MCP tool's arguments, past serde_json's limit of 128 levels;
//! - **fields of a newer or older agent**: missing ones the typed input requires
//!   (`tool_use_id`), wrong-typed optional ones.
//!
//! [`read_agent_event`] reads all of these. The engine gets a copy it can read — lone surrogates
//! shown as U+FFFD, containers deeper than [`ENGINE_DEPTH`] as `null` — for matching and `if`
//! rules only; the hooks get the agent's bytes as they were sent (the caller passes them on).
//! What it still refuses, it refuses with line and column or the field's JSON pointer: bytes
//! that are not UTF-8 or not JSON, a document over [`MAX_AGENT_EVENT_BYTES`], no event name, an
//! event name other than the expected one, and a missing or wrong-typed field the engine needs
//! (`cwd`, where hooks run; on a tool event `tool_name` and `tool_input`, what matchers and `if`
//! rules test; on other events that can block, the field their matchers test).

use serde_json::Value;

use super::{EventInput, InputError, input_from_value, strip_position};
use crate::text::json_type;
use crate::{Dialect, Event, MatchTarget};

/// The largest event [`read_agent_event`] reads: 64 MiB (a `Write` of a large file is a few
/// MiB; Claude Code's own limits on tool input are far below this).
pub const MAX_AGENT_EVENT_BYTES: usize = 64 * 1024 * 1024;

/// Containers nested deeper than this are `null` in the engine's copy (serde_json stops at
/// 128). No matcher or `if` rule reads that deep: they test `tool_name`, `command`, `file_path`.
const ENGINE_DEPTH: usize = 64;

/// How many wrong-typed common fields are set aside before giving up (there are fewer).
const MAX_SET_ASIDE: usize = 16;

/// An event as the agent sent it, read for the engine.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AgentEvent {
    /// The input the engine matches and dispatches on. Where the bytes held what a typed input
    /// cannot (see the module docs), the copy the engine reads, possibly as the dialect's
    /// `Input::Other` with every field kept. Hooks should get the agent's own bytes.
    pub input: EventInput,
    /// What was read leniently, one sentence each (for a log or stderr): lone surrogates,
    /// containers too deep, fields set aside. Empty for an input [`parse_input`] reads.
    ///
    /// [`parse_input`]: super::parse_input
    pub tolerated: Vec<String>,
}

/// Reads the event an agent sent as its hook's stdin; see the module docs for what is
/// tolerated. `expected` is the event the caller was installed for, if it knows: an input
/// without `hook_event_name` is read as that event, one with another name is refused.
///
/// # Errors
///
/// [`InputError`]: over [`MAX_AGENT_EVENT_BYTES`] (`TooLarge`), not UTF-8 or not JSON
/// (`NotJson`, with line and column), not an object, no event name, an event name other than
/// `expected` (`EventMismatch`), or a field the engine needs missing or wrong-typed (`Field`,
/// with its pointer).
pub fn read_agent_event(
    dialect: Dialect,
    bytes: &[u8],
    expected: Option<&Event>,
) -> Result<AgentEvent, InputError> {
    if bytes.len() > MAX_AGENT_EVENT_BYTES {
        return Err(InputError::TooLarge {
            size: bytes.len(),
            limit: MAX_AGENT_EVENT_BYTES,
        });
    }
    if let Err(error) = std::str::from_utf8(bytes) {
        let (line, column) = line_and_column(bytes, error.valid_up_to());
        return Err(InputError::NotJson {
            line,
            column,
            message: "the bytes are not UTF-8".to_owned(),
        });
    }
    let mut tolerated = Vec::new();
    let readable: std::borrow::Cow<'_, [u8]> = match serde_json::from_slice::<Value>(bytes) {
        Ok(_) => bytes.into(),
        // The copy is made by a reader of the whole JSON grammar, so its error is the first
        // thing wrong with the document.
        Err(_) => match readable_copy(bytes) {
            Ok(copy) => {
                tolerated.extend(copy.notes());
                copy.bytes.into()
            }
            Err(bad) => {
                let (line, column) = line_and_column(bytes, bad.offset);
                return Err(InputError::NotJson {
                    line,
                    column,
                    message: bad.what.to_owned(),
                });
            }
        },
    };
    let value = parse(&readable)?;
    let event = event_of(&value, expected)?;
    let value = with_event_name(value, &event);
    match input_from_value(dialect, value) {
        Ok(input) => Ok(AgentEvent { input, tolerated }),
        Err(InputError::Field {
            pointer, message, ..
        }) => {
            // Read again (the typed read took the value) and keep it whole.
            let value = with_event_name(parse(&readable)?, &event);
            check_needed(dialect, &event, &value)?;
            tolerated.push(format!(
                "{} {event}: {message}; read as it was sent",
                shown(&pointer)
            ));
            let input = read_as_other(dialect, &event, value, &mut tolerated)?;
            Ok(AgentEvent { input, tolerated })
        }
        Err(error) => Err(error),
    }
}

fn parse(bytes: &[u8]) -> Result<Value, InputError> {
    serde_json::from_slice(bytes).map_err(|error| not_json(&error))
}

fn not_json(error: &serde_json::Error) -> InputError {
    InputError::NotJson {
        line: error.line(),
        column: error.column(),
        message: strip_position(error),
    }
}

fn shown(pointer: &str) -> String {
    if pointer.is_empty() {
        "the input".to_owned()
    } else {
        format!("field {pointer} of")
    }
}

/// The event `value` names, checked against `expected`.
fn event_of(value: &Value, expected: Option<&Event>) -> Result<Event, InputError> {
    let Value::Object(object) = value else {
        return Err(InputError::NotAnObject {
            found: json_type(value),
        });
    };
    match (
        object.get("hook_event_name").and_then(Value::as_str),
        expected,
    ) {
        (Some(name), Some(expected)) if Event::from_name(name) != *expected => {
            Err(InputError::EventMismatch {
                expected: expected.to_string(),
                found: name.to_owned(),
            })
        }
        (Some(name), _) => Ok(Event::from_name(name)),
        (None, Some(expected)) if !object.contains_key("hook_event_name") => Ok(expected.clone()),
        (None, _) => Err(InputError::MissingEventName),
    }
}

/// `value` with `hook_event_name` set (it is only ever added where it was missing).
fn with_event_name(mut value: Value, event: &Event) -> Value {
    if let Value::Object(object) = &mut value
        && !object.contains_key("hook_event_name")
    {
        object.insert("hook_event_name".to_owned(), event.as_str().into());
    }
    value
}

/// The fields without which the engine would guess: where hooks run, and what matchers test.
fn check_needed(dialect: Dialect, event: &Event, value: &Value) -> Result<(), InputError> {
    let mut needed: Vec<&str> = vec!["cwd"];
    let target = event.match_target(dialect);
    if target == MatchTarget::ToolName {
        needed.push("tool_name");
    } else if event.block_effect(dialect).can_block()
        && let Some(field) = target.field()
    {
        needed.push(field);
    }
    for field in needed {
        if value.get(field).and_then(Value::as_str).is_none() {
            let found = value.get(field).map_or("nothing", |v| json_type(v));
            return Err(InputError::Field {
                event: event.to_string(),
                pointer: format!("/{field}"),
                message: format!(
                    "expected a string, found {found}: the engine needs it to choose and run the hooks"
                ),
            });
        }
    }
    if target == MatchTarget::ToolName && value.get("tool_input").is_none() {
        return Err(InputError::Field {
            event: event.to_string(),
            pointer: "/tool_input".to_owned(),
            message: "missing: `if` rules and guards read the tool's input".to_owned(),
        });
    }
    Ok(())
}

/// `value` as the dialect's `Input::Other`, setting aside common fields of the wrong type (they
/// stay in the agent's bytes, which is what hooks get).
fn read_as_other(
    dialect: Dialect,
    event: &Event,
    mut value: Value,
    tolerated: &mut Vec<String>,
) -> Result<EventInput, InputError> {
    for _ in 0..MAX_SET_ASIDE {
        match EventInput::other(dialect, event, value.clone()) {
            Ok(input) => return Ok(input),
            Err(InputError::Field {
                pointer, message, ..
            }) => {
                let field = pointer.trim_start_matches('/');
                let removable = !field.is_empty()
                    && !field.contains('/')
                    && !matches!(field, "cwd" | "hook_event_name");
                let removed = removable
                    && value
                        .as_object_mut()
                        .is_some_and(|object| object.remove(field).is_some());
                if !removed {
                    return Err(InputError::Field {
                        event: event.to_string(),
                        pointer,
                        message,
                    });
                }
                tolerated.push(format!(
                    "field {pointer} of {event}: {message}; not read by the engine, passed on to the hooks as it was sent"
                ));
            }
            Err(error) => return Err(error),
        }
    }
    Err(InputError::Field {
        event: event.to_string(),
        pointer: String::new(),
        message: "too many fields of the wrong type".to_owned(),
    })
}

/// 1-based line and column of byte `offset`.
fn line_and_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|b| **b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |at| at + 1);
    let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line, column)
}

/// The engine's copy of a JSON document, and what had to change in it.
struct ReadableCopy {
    bytes: Vec<u8>,
    lone_surrogates: usize,
    cut_containers: usize,
}

impl ReadableCopy {
    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.lone_surrogates > 0 {
            notes.push(format!(
                "{} lone surrogate escape(s) read as U+FFFD by the engine (the hooks get them as sent)",
                self.lone_surrogates
            ));
        }
        if self.cut_containers > 0 {
            notes.push(format!(
                "{} value(s) nested deeper than {ENGINE_DEPTH} levels not read by the engine (the hooks get them as sent)",
                self.cut_containers
            ));
        }
        notes
    }
}

/// Where the grammar was broken, and how.
struct Malformed {
    offset: usize,
    what: &'static str,
}

/// What the reader expects next.
#[derive(Clone, Copy, PartialEq)]
enum Expect {
    Value,
    /// Just after `[`.
    ValueOrClose,
    /// Just after `{`.
    KeyOrClose,
    /// After a `,` in an object.
    Key,
    Colon,
    CommaOrClose,
    End,
}

/// Reads the whole JSON grammar without recursion (any depth, bounded memory: one byte a
/// level), writing the engine's copy: lone surrogate escapes become `\ufffd`, containers deeper
/// than [`ENGINE_DEPTH`] become `null` (their content still checked).
fn readable_copy(bytes: &[u8]) -> Result<ReadableCopy, Malformed> {
    let mut copy = ReadableCopy {
        bytes: Vec::with_capacity(bytes.len()),
        lone_surrogates: 0,
        cut_containers: 0,
    };
    let mut stack: Vec<u8> = Vec::new();
    // The depth at which the container being left out began.
    let mut cut_at: Option<usize> = None;
    let mut expect = Expect::Value;
    let mut at = 0;
    let bad = |offset: usize, what: &'static str| Err(Malformed { offset, what });
    while at < bytes.len() {
        let byte = bytes[at];
        let emit = cut_at.is_none();
        if matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
            if emit {
                copy.bytes.push(byte);
            }
            at += 1;
            continue;
        }
        let closes = matches!(
            (expect, byte),
            (Expect::ValueOrClose | Expect::CommaOrClose, b']')
                | (Expect::KeyOrClose | Expect::CommaOrClose, b'}')
        );
        if closes {
            let open = stack.pop();
            if open != Some(if byte == b']' { b'[' } else { b'{' }) {
                return bad(at, "a closing bracket that does not match its opening one");
            }
            if emit {
                copy.bytes.push(byte);
            } else if cut_at.is_some_and(|depth| stack.len() < depth) {
                cut_at = None;
            }
            at += 1;
            expect = after_value(&stack);
            continue;
        }
        match expect {
            Expect::Value | Expect::ValueOrClose => match byte {
                b'[' | b'{' => {
                    stack.push(byte);
                    if emit && stack.len() > ENGINE_DEPTH {
                        cut_at = Some(stack.len());
                        copy.cut_containers += 1;
                        copy.bytes.extend_from_slice(b"null");
                    } else if emit {
                        copy.bytes.push(byte);
                    }
                    at += 1;
                    expect = if byte == b'[' {
                        Expect::ValueOrClose
                    } else {
                        Expect::KeyOrClose
                    };
                }
                b'"' => {
                    at = string(bytes, at, emit, &mut copy)?;
                    expect = after_value(&stack);
                }
                b'-' | b'0'..=b'9' => {
                    let end = number(bytes, at)?;
                    if emit {
                        copy.bytes.extend_from_slice(&bytes[at..end]);
                    }
                    at = end;
                    expect = after_value(&stack);
                }
                b't' | b'f' | b'n' => {
                    let word: &[u8] = match byte {
                        b't' => b"true",
                        b'f' => b"false",
                        _ => b"null",
                    };
                    if !bytes[at..].starts_with(word) {
                        return bad(at, "an unknown word (expected true, false or null)");
                    }
                    if emit {
                        copy.bytes.extend_from_slice(word);
                    }
                    at += word.len();
                    expect = after_value(&stack);
                }
                _ => return bad(at, "expected a value"),
            },
            Expect::KeyOrClose | Expect::Key => {
                if byte != b'"' {
                    return bad(at, "expected a key in double quotes");
                }
                at = string(bytes, at, emit, &mut copy)?;
                expect = Expect::Colon;
            }
            Expect::Colon => {
                if byte != b':' {
                    return bad(at, "expected `:` after a key");
                }
                if emit {
                    copy.bytes.push(byte);
                }
                at += 1;
                expect = Expect::Value;
            }
            Expect::CommaOrClose => {
                if byte != b',' {
                    return bad(at, "expected `,` or a closing bracket");
                }
                if emit {
                    copy.bytes.push(byte);
                }
                at += 1;
                expect = if stack.last() == Some(&b'[') {
                    Expect::Value
                } else {
                    Expect::Key
                };
            }
            Expect::End => return bad(at, "trailing characters after the document"),
        }
    }
    if expect != Expect::End {
        return bad(bytes.len(), "the document ends early");
    }
    Ok(copy)
}

fn after_value(stack: &[u8]) -> Expect {
    if stack.is_empty() {
        Expect::End
    } else {
        Expect::CommaOrClose
    }
}

/// Reads the string starting at `bytes[start] == b'"'`; returns the offset after it.
fn string(
    bytes: &[u8],
    start: usize,
    emit: bool,
    copy: &mut ReadableCopy,
) -> Result<usize, Malformed> {
    let bad = |offset: usize, what: &'static str| Err(Malformed { offset, what });
    let mut at = start + 1;
    let mut out: Vec<u8> = vec![b'"'];
    loop {
        let Some(&byte) = bytes.get(at) else {
            return bad(start, "a string that never ends");
        };
        match byte {
            b'"' => {
                out.push(byte);
                at += 1;
                break;
            }
            b'\\' => {
                let Some(&escape) = bytes.get(at + 1) else {
                    return bad(at, "a string that never ends");
                };
                match escape {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                        out.extend_from_slice(&bytes[at..at + 2]);
                        at += 2;
                    }
                    b'u' => {
                        let Some(unit) = hex4(bytes, at + 2) else {
                            return bad(at, "a \\u escape without four hex digits");
                        };
                        let pair_follows = (0xD800..0xDC00).contains(&unit)
                            && bytes.get(at + 6) == Some(&b'\\')
                            && bytes.get(at + 7) == Some(&b'u')
                            && hex4(bytes, at + 8)
                                .is_some_and(|low| (0xDC00..0xE000).contains(&low));
                        if pair_follows {
                            out.extend_from_slice(&bytes[at..at + 12]);
                            at += 12;
                        } else if (0xD800..0xE000).contains(&unit) {
                            out.extend_from_slice(b"\\ufffd");
                            copy.lone_surrogates += 1;
                            at += 6;
                        } else {
                            out.extend_from_slice(&bytes[at..at + 6]);
                            at += 6;
                        }
                    }
                    _ => return bad(at, "an unknown escape in a string"),
                }
            }
            0x00..=0x1f => return bad(at, "a control character in a string (escape it)"),
            _ => {
                out.push(byte);
                at += 1;
            }
        }
    }
    if emit {
        copy.bytes.extend_from_slice(&out);
    }
    Ok(at)
}

fn hex4(bytes: &[u8], at: usize) -> Option<u16> {
    let digits = bytes.get(at..at + 4)?;
    let text = std::str::from_utf8(digits).ok()?;
    if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(text, 16).ok()
}

/// Reads the number starting at `start`; returns the offset after it.
fn number(bytes: &[u8], start: usize) -> Result<usize, Malformed> {
    let digits = |mut at: usize| {
        let from = at;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        (at, at - from)
    };
    let mut at = start;
    if bytes.get(at) == Some(&b'-') {
        at += 1;
    }
    let (end, count) = digits(at);
    if count == 0 || (count > 1 && bytes[at] == b'0') {
        return Err(Malformed {
            offset: start,
            what: "a malformed number",
        });
    }
    at = end;
    if bytes.get(at) == Some(&b'.') {
        let (end, count) = digits(at + 1);
        if count == 0 {
            return Err(Malformed {
                offset: start,
                what: "a malformed number",
            });
        }
        at = end;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let (end, count) = digits(at);
        if count == 0 {
            return Err(Malformed {
                offset: start,
                what: "a malformed number",
            });
        }
        at = end;
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copy(text: &str) -> String {
        let copy = readable_copy(text.as_bytes()).unwrap_or_else(|bad| {
            panic!("{text}: {} at {}", bad.what, bad.offset);
        });
        String::from_utf8(copy.bytes).expect("the copy of UTF-8 is UTF-8")
    }

    #[test]
    fn valid_documents_are_copied_unchanged() {
        for text in [
            r#"{"a": [1, -2.5e+3, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {}}"#,
            "[]",
            " 0 ",
            r#""s""#,
        ] {
            assert_eq!(copy(text), text);
            let _: Value = serde_json::from_str(&copy(text)).expect("valid");
        }
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        assert_eq!(
            copy(r#"["x\ud800", "\udc00y", "\ud800\u0041"]"#),
            r#"["x\ufffd", "\ufffdy", "\ufffd\u0041"]"#
        );
    }

    #[test]
    fn deep_containers_are_cut_at_the_engine_depth_without_recursion() {
        let depth = 200_000;
        let text = format!("{{\"a\": {}1{}}}", "[".repeat(depth), "]".repeat(depth));
        let copied = copy(&text);
        let value: Value = serde_json::from_str(&copied).expect("the copy is shallow");
        let mut inner = &value["a"];
        let mut levels = 0;
        while let Some(first) = inner.get(0) {
            inner = first;
            levels += 1;
        }
        assert_eq!(
            levels,
            ENGINE_DEPTH - 1,
            "the object, then arrays down to the engine depth"
        );
        assert_eq!(*inner, Value::Null);
    }

    #[test]
    fn malformed_documents_are_refused_even_inside_a_cut_container() {
        let deep = |inside: &str| format!("{}{inside}{}", "[".repeat(100), "]".repeat(100));
        for text in [
            deep("1,"),
            deep("tru"),
            deep("\"a"),
            deep("01"),
            deep("{\"a\" 1}"),
            deep("{1: 2}"),
            "[1}".to_owned(),
            "{\"a\": 1".to_owned(),
            "{} x".to_owned(),
            "\"\\x\"".to_owned(),
            "\"a\u{1}\"".to_owned(),
            "\"\\u12\"".to_owned(),
            "".to_owned(),
        ] {
            assert!(
                readable_copy(text.as_bytes()).is_err(),
                "accepted {text:.40}"
            );
        }
    }
}

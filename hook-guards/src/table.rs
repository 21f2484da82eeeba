//! Each guard's case table: calls it must block or allow, each rendered as the `PreToolUse`
//! event Claude Code sends and the one Codex sends ([`Shape`]), read back through the SDK and
//! checked by the guard. `hook guard test NAME` prints the results; the crate's tests require
//! every case to pass in both shapes.
//!
//! Every case runs in the same scene: the home folder is [`HOME`], the session's working
//! directory (the project) [`PROJECT`].

use hook_sdk::{Dialect, Event};
use serde_json::{Value, json};

use crate::{Guard, Settings, Verdict};

/// The home folder of every case.
pub(crate) const HOME: &str = "/home/dev";
/// The project (the session's working directory) of every case.
pub(crate) const PROJECT: &str = "/home/dev/project";

/// An agent's event shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shape {
    /// Claude Code (verboo): `Bash`, `Read`, `Write`, `Edit`, `Grep` with its field names.
    ClaudeCode,
    /// Codex CLI (lime): `Bash` for commands (reads and searches become `cat`/`grep`
    /// commands), `apply_patch` for writes and edits.
    Codex,
}

impl Shape {
    /// Both shapes.
    pub const ALL: [Shape; 2] = [Shape::ClaudeCode, Shape::Codex];

    /// The agent's name (`Claude Code`, `Codex CLI`).
    pub fn title(self) -> &'static str {
        match self {
            Shape::ClaudeCode => "Claude Code",
            Shape::Codex => "Codex CLI",
        }
    }

    /// The dialect the agent speaks.
    pub fn dialect(self) -> Dialect {
        match self {
            Shape::ClaudeCode => Dialect::Verboo,
            Shape::Codex => Dialect::Lime,
        }
    }
}

/// The tool call of a case, in neutral terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CaseCall {
    /// A shell command.
    Bash(&'static str),
    /// Reading a file (Codex: `cat 'PATH'`).
    Read(&'static str),
    /// Writing a whole file (Codex: a patch adding it).
    Write(&'static str, &'static str),
    /// Replacing text in a file with this text (Codex: a patch updating it).
    Edit(&'static str, &'static str),
    /// Searching file contents under a path (Codex: `grep -r 'PATTERN' 'PATH'`).
    Grep(&'static str, &'static str),
}

/// What a guard must say about a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expect {
    /// [`Verdict::Block`].
    Block,
    /// [`Verdict::Allow`].
    Allow,
    /// [`Verdict::Unreadable`].
    Unreadable,
}

/// One case of a guard's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Case {
    /// The call.
    pub call: CaseCall,
    /// What the guard must say.
    pub expect: Expect,
    /// What the case shows (`flags split`, `through sudo`...).
    pub form: &'static str,
    /// Options over the defaults, as `KEY=VALUE`.
    pub settings: &'static [&'static str],
}

/// A case the guard must block.
pub(crate) const fn block(call: CaseCall, form: &'static str) -> Case {
    Case {
        call,
        expect: Expect::Block,
        form,
        settings: &[],
    }
}

/// A case the guard must allow.
pub(crate) const fn allow(call: CaseCall, form: &'static str) -> Case {
    Case {
        call,
        expect: Expect::Allow,
        form,
        settings: &[],
    }
}

/// A case the guard must find unreadable.
pub(crate) const fn unreadable(call: CaseCall, form: &'static str) -> Case {
    Case {
        call,
        expect: Expect::Unreadable,
        form,
        settings: &[],
    }
}

impl Case {
    /// The case with these options over the defaults.
    pub const fn with(self, settings: &'static [&'static str]) -> Case {
        Case { settings, ..self }
    }

    /// The case's call as `shape`'s `PreToolUse` event.
    pub fn event(&self, shape: Shape) -> Value {
        let (tool_name, tool_input) = match (shape, self.call) {
            (_, CaseCall::Bash(command)) => ("Bash", json!({ "command": command })),
            (Shape::ClaudeCode, CaseCall::Read(path)) => ("Read", json!({ "file_path": path })),
            (Shape::ClaudeCode, CaseCall::Write(path, content)) => {
                ("Write", json!({ "file_path": path, "content": content }))
            }
            (Shape::ClaudeCode, CaseCall::Edit(path, new)) => (
                "Edit",
                json!({ "file_path": path, "old_string": "x", "new_string": new }),
            ),
            (Shape::ClaudeCode, CaseCall::Grep(pattern, path)) => {
                ("Grep", json!({ "pattern": pattern, "path": path }))
            }
            (Shape::Codex, CaseCall::Read(path)) => (
                "Bash",
                json!({ "command": format!("cat {}", quoted(path)) }),
            ),
            (Shape::Codex, CaseCall::Grep(pattern, path)) => (
                "Bash",
                json!({ "command": format!("grep -r {} {}", quoted(pattern), quoted(path)) }),
            ),
            (Shape::Codex, CaseCall::Write(path, content)) => (
                "apply_patch",
                json!({ "command": patch("Add File", path, "", content) }),
            ),
            (Shape::Codex, CaseCall::Edit(path, new)) => (
                "apply_patch",
                json!({ "command": patch("Update File", path, "@@\n-x\n", new) }),
            ),
        };
        let mut event = json!({
            "session_id": "guard-case",
            "transcript_path": "/home/dev/.sessions/guard-case.jsonl",
            "cwd": PROJECT,
            "hook_event_name": "PreToolUse",
            "permission_mode": "default",
            "tool_name": tool_name,
            "tool_input": tool_input,
            "tool_use_id": "call-1",
        });
        if shape == Shape::Codex {
            event["model"] = json!("gpt-5.1-codex");
            event["turn_id"] = json!("turn-1");
        }
        event
    }

    /// What `guard` (its options replaced by the case's) says about the case in `shape`.
    pub fn run(&self, guard: &'static crate::Builtin, shape: Shape) -> CaseResult {
        let got = match Settings::parse(guard, self.settings) {
            Err(error) => Err(format!("the case's options: {error}")),
            Ok(settings) => {
                let guard = Guard::new(guard, settings, Some(HOME.into()));
                Event::from_value(shape.dialect(), self.event(shape))
                    .map(|event| guard.check_event(&event))
                    .map_err(|error| format!("the case's event does not read: {error}"))
            }
        };
        let passed = matches!(
            (&got, self.expect),
            (Ok(Verdict::Allow), Expect::Allow)
                | (Ok(Verdict::Block { .. }), Expect::Block)
                | (Ok(Verdict::Unreadable { .. }), Expect::Unreadable)
        );
        CaseResult {
            case: *self,
            shape,
            got,
            passed,
        }
    }

    /// The call as a line for people: the command, or the tool and its path.
    pub fn describe(&self) -> String {
        match self.call {
            CaseCall::Bash(command) => command.to_owned(),
            CaseCall::Read(path) => format!("Read {path}"),
            CaseCall::Write(path, _) => format!("Write {path}"),
            CaseCall::Edit(path, _) => format!("Edit {path}"),
            CaseCall::Grep(pattern, path) => format!("Grep {pattern} in {path}"),
        }
    }
}

/// A case run in one shape.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CaseResult {
    /// The case.
    pub case: Case,
    /// The shape it ran in.
    pub shape: Shape,
    /// The verdict, or why the case could not run.
    pub got: Result<Verdict, String>,
    /// Whether the verdict is the one expected.
    pub passed: bool,
}

/// `text` single-quoted for a POSIX shell.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// An `apply_patch` patch with one file section.
fn patch(action: &str, path: &str, before: &str, added: &str) -> String {
    let added: String = added.lines().map(|line| format!("+{line}\n")).collect();
    format!("*** Begin Patch\n*** {action}: {path}\n{before}{added}*** End Patch\n")
}

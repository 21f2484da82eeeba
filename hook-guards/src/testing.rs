//! What the guards' unit tests share: a guard's verdict on a tool call in the scene every case
//! runs in, and the pieces of one.

use std::path::Path;

use hook_sdk::Tool;

use crate::table::{HOME, PROJECT};
use crate::{Builtin, Call, Expect, Settings, Verdict};

/// The verdict of `guard` with `settings` over its defaults (`KEY=VALUE`) on `tool`, in the
/// cases' scene: home [`HOME`], project (the session's folder) [`PROJECT`].
pub(crate) fn verdict(guard: &Builtin, tool: &Tool, settings: &[&str]) -> Verdict {
    let settings = Settings::parse(guard, settings).expect("valid settings");
    (guard.check)(&call(tool), &settings)
}

/// A call of `tool` in the cases' scene.
pub(crate) fn call(tool: &Tool) -> Call<'_> {
    Call {
        tool,
        cwd: Path::new(PROJECT),
        home: Some(Path::new(HOME)),
    }
}

/// A `Bash` call running `command`.
pub(crate) fn bash(command: &str) -> Tool {
    Tool::Bash {
        command: command.to_owned(),
        description: None,
    }
}

/// The reason of a block; panics on another verdict.
pub(crate) fn reason(verdict: Verdict) -> String {
    match verdict {
        Verdict::Block { reason } => reason,
        other => panic!("expected a block, got {other:?}"),
    }
}

/// How many cases of `guard`'s table expect `expect`.
pub(crate) fn count(guard: &Builtin, expect: Expect) -> usize {
    guard.cases.iter().filter(|c| c.expect == expect).count()
}

/// The words of `line`, split on white space (a program's arguments, for tests that need no
/// quoting).
pub(crate) fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_owned).collect()
}

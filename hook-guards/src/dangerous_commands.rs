//! `dangerous-commands`: shell commands that destroy what cannot be got back.
//! (Skeleton: only `rm -r` of the home or the root; the full guard replaces it.)

use crate::command::{self, Invocation};
use crate::options::OptionSpec;
use crate::{Builtin, Call, Settings, Verdict, paths};
use hook_sdk::Tool;

mod cases;

pub(crate) static GUARD: Builtin = Builtin {
    name: "dangerous-commands",
    summary: "recursive deletes outside the project, force-pushes to protected branches, discarding uncommitted work, chmod -R 777, dd/mkfs on devices, fork bombs, curl | sh",
    matcher: "Bash",
    options: &[
        OptionSpec::list(
            "protected-branches",
            "main,master",
            "branches a force-push to is blocked",
        ),
        OptionSpec::list(
            "allowed-paths",
            "",
            "folders outside the project a recursive delete may touch (/tmp/build)",
        ),
        OptionSpec::flag(
            "block-unreadable",
            "false",
            "block a command the guard cannot read (a program named by a variable...)",
        ),
    ],
    check,
    cases: cases::CASES,
};

fn check(call: &Call<'_>, _settings: &Settings) -> Verdict {
    let Tool::Bash { command, .. } = call.tool else {
        return Verdict::Allow;
    };
    let reading = command::read(command);
    for invocation in &reading.invocations {
        if let Some(reason) = recursive_delete(invocation, call) {
            return Verdict::Block { reason };
        }
    }
    match reading.unreadable {
        Some(why) => Verdict::Unreadable { why },
        None => Verdict::Allow,
    }
}

fn recursive_delete(invocation: &Invocation, call: &Call<'_>) -> Option<String> {
    if invocation.program != "rm" {
        return None;
    }
    let flags = invocation.short_flags();
    if !(flags.contains(&'r') || flags.contains(&'R') || invocation.has_long("recursive")) {
        return None;
    }
    for operand in invocation.operands() {
        let Some(path) = paths::absolute(operand, call) else {
            continue;
        };
        if !path.starts_with(call.cwd) {
            return Some(format!(
                "`rm` deletes `{}` recursively, outside the project {}: delete only inside the project, or ask the user to do it",
                path.display(),
                call.cwd.display()
            ));
        }
    }
    None
}

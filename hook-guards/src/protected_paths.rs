//! `protected-paths`: (skeleton; the full guard replaces it).

use crate::options::OptionSpec;
use crate::{Builtin, Call, Settings, Verdict};

mod cases;

pub(crate) static GUARD: Builtin = Builtin {
    name: "protected-paths",
    summary: "TODO",
    matcher: "Bash|Read|Write|Edit|MultiEdit|Grep|Glob|NotebookEdit",
    options: &[OptionSpec::list(
        "allowed-paths",
        "",
        "paths the guard never blocks",
    )],
    check,
    cases: cases::CASES,
};

fn check(_call: &Call<'_>, _settings: &Settings) -> Verdict {
    Verdict::Allow
}

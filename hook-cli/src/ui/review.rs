//! `hook trust --review` on a terminal: each hook shown (every line escaped: a diff is the
//! project's text), then trust / skip / quit.

use std::io::BufRead;

use anyhow::Result;

use crate::ops::review::Item;

use super::{Printer, say};

/// An answer to "trust this hook?".
pub(crate) enum Answer {
    /// Trust it as shown.
    Trust,
    /// Leave it untrusted and go on.
    Skip,
    /// Stop the review.
    Quit,
}

/// Asks until the answer is one of t, s, q (end of input quits).
pub(crate) fn ask(printer: &Printer, input: &mut impl BufRead) -> Result<Answer> {
    loop {
        printer.exact("trust this hook? [t]rust / [s]kip / [q]uit: ");
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            say!(printer);
            return Ok(Answer::Quit);
        }
        match line.trim() {
            "t" | "trust" => return Ok(Answer::Trust),
            "s" | "skip" => return Ok(Answer::Skip),
            "q" | "quit" => return Ok(Answer::Quit),
            _ => say!(printer, "answer t, s or q"),
        }
    }
}

/// Prints one hook's review.
pub(crate) fn show(printer: &Printer, number: usize, total: usize, item: &Item) {
    say!(printer);
    say!(
        printer,
        "hook {number} of {total}: {} ({})",
        item.key,
        item.status
    );
    say!(printer, "  source:  {} ({})", item.source, item.layer);
    say!(printer, "  event:   {} [{}]", item.event, item.matcher);
    say!(printer, "  command: {}", item.command);
    if let Some(old) = &item.trusted_command
        && *old != item.command
    {
        say!(printer, "  was:     {old}");
    }
    if item.files.is_empty() {
        say!(printer, "  files:   none inside the project or plugin");
    }
    for file in &item.files {
        say!(
            printer,
            "  file:    {} ({})",
            file.file.path.display(),
            file.file.change
        );
    }
    for word in &item.uncovered {
        say!(printer, "  not covered: {} {}", word.word, word.why);
    }
    if let Some(diff) = &item.config_diff {
        say!(printer, "  configuration, trusted -> now:");
        for line in diff.lines() {
            say!(printer, "    {line}");
        }
    } else if let Some(note) = &item.config_note {
        say!(printer, "  configuration: {note}");
    }
    for file in &item.files {
        if let Some(diff) = &file.diff {
            say!(printer, "  {}:", file.file.path.display());
            for line in diff.lines() {
                say!(printer, "    {line}");
            }
        } else if let Some(note) = &file.note {
            say!(printer, "  {}: {note}", file.file.path.display());
        }
    }
}

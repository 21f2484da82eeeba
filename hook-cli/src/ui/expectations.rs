//! What `hook test --expectations` (and `hook doctor`) print of an expectations file's cases:
//! a pass/fail table with each failure's problem under it, or the JSON report.

use std::path::Path;

use comfy_table::{Table, presets};
use hook_config::Diagnostic;

use crate::ops::expectations::CaseResult;

use super::terminal::one_line;
use super::{Printer, colour, say};

/// The diagnostics of the configurations the cases ran through.
pub(crate) fn diagnostics(printer: &Printer, diagnostics: &[Diagnostic]) {
    super::diagnostics::print(printer, diagnostics);
}

/// The JSON report: the file, `ok`, every case.
pub(crate) fn json(printer: &Printer, file: &Path, results: &[CaseResult]) -> anyhow::Result<()> {
    let failed = results.iter().any(|r| !r.passed);
    printer.exact_line(&serde_json::to_string_pretty(&serde_json::json!({
        "file": file,
        "ok": !failed,
        "cases": results,
    }))?);
    Ok(())
}

/// The results as a table on stdout, each failure's problem under it.
pub(crate) fn table(printer: &Printer, results: &[CaseResult]) {
    let mut table = Table::new();
    table
        .load_preset(presets::UTF8_BORDERS_ONLY)
        .set_header(["case", "event", "expected", "got", "result"]);
    super::table::fit(&mut table);
    for result in results {
        table.add_row([
            one_line(&result.name).into_owned(),
            one_line(&result.event).into_owned(),
            result.expected.clone(),
            result.got.clone(),
            if result.passed { "pass" } else { "FAIL" }.to_owned(),
        ]);
    }
    printer.exact(&format!("{table}\n"));
    for result in results.iter().filter(|r| !r.passed) {
        if let Some(problem) = &result.problem {
            printer.exact(&format!(
                "{} {}: {}\n",
                printer.paint(colour::RED, "FAIL"),
                printer.paint(colour::BOLD, &result.name),
                one_line(problem)
            ));
        }
    }
    let failed = results.iter().filter(|r| !r.passed).count();
    say!(
        printer,
        "{} of {} expectation(s) met",
        results.len() - failed,
        results.len()
    );
}

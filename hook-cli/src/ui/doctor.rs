//! What `hook doctor` prints: the PATH it checked against, each finding (severity, key,
//! `file:line:col`, message, fix), the expectations' tally and the count of errors and warnings;
//! or all of it as JSON. Fixes are worded here: paths and keys quoted for the shell, the
//! location's flags in the commands suggested.

use anyhow::Result;
use hook_protocol::Dialect;
use serde::Serialize;

use super::colour::{BOLD, DIM, GREEN, RED, YELLOW};

use super::terminal::one_line;
use super::{Printer, say};
use crate::ops::doctor::{DoctorReport, Finding, Fix, Severity};

/// A finding as `--json` shows it.
#[derive(Debug, Serialize)]
struct FindingView<'a> {
    severity: &'static str,
    key: &'a str,
    location: &'a str,
    message: &'a str,
    fix: Option<String>,
}

/// `fix` in words ([`Fix::words`]).
fn fix_text(fix: &Fix) -> String {
    fix.words()
}

fn view(finding: &Finding) -> FindingView<'_> {
    FindingView {
        severity: finding.severity.as_str(),
        key: &finding.key,
        location: &finding.location,
        message: &finding.message,
        fix: finding.fix.as_ref().map(fix_text),
    }
}

/// The report of `dialect`'s hooks, as text or JSON.
pub(crate) fn report(
    printer: &Printer,
    dialect: Dialect,
    report: &DoctorReport,
    json: bool,
) -> Result<()> {
    let errors = report.count(Severity::Error);
    let warnings = report.count(Severity::Warning);
    if json {
        let findings: Vec<FindingView<'_>> = report.findings.iter().map(view).collect();
        printer.exact_line(&serde_json::to_string_pretty(&serde_json::json!({
            "ok": errors == 0,
            "path": report.path,
            "path_source": report.path_source,
            "hooks": report.hooks,
            "findings": findings,
            "expectations": report.expectations,
        }))?);
        return Ok(());
    }
    say!(
        printer,
        "hook doctor: {dialect}, {} hook(s); PATH {} ({})",
        report.hooks,
        report.path,
        report.path_source
    );
    for finding in &report.findings {
        let colour = match finding.severity {
            Severity::Error => RED,
            Severity::Warning => YELLOW,
            Severity::Info => DIM,
        };
        printer.exact(&format!(
            "{} {} {}\n    {}\n",
            printer.paint(colour, &format!("{:<7}", finding.severity.as_str())),
            printer.paint(BOLD, &finding.key),
            printer.paint(DIM, &finding.location),
            one_line(&finding.message),
        ));
        if let Some(fix) = &finding.fix {
            printer.exact_line(&format!(
                "    {} {}",
                printer.paint(GREEN, "fix:"),
                one_line(&fix_text(fix))
            ));
        }
    }
    if let Some(results) = &report.expectations {
        say!(
            printer,
            "expectations ({}): {} of {} met",
            report.expectations_file.display(),
            results.iter().filter(|r| r.passed).count(),
            results.len()
        );
    }
    let colour = match (errors, warnings) {
        (0, 0) => GREEN,
        (0, _) => YELLOW,
        _ => RED,
    };
    printer.spans(&[(colour, &format!("{errors} error(s), {warnings} warning(s)"))]);
    Ok(())
}

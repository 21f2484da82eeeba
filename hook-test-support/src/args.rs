//! Command lines as the tests build them.

use std::path::Path;

/// `COMMAND --dialect DIALECT --home HOME --project PROJECT`, as owned words.
pub fn located(command: &str, dialect: &str, home: &Path, project: &Path) -> Vec<String> {
    [command, "--dialect", dialect, "--home"]
        .iter()
        .map(|w| (*w).to_owned())
        .chain([home.display().to_string(), "--project".to_owned()])
        .chain([project.display().to_string()])
        .collect()
}

/// Owned words as the `&str`s a [`crate::Runner`] takes.
pub fn words(owned: &[String]) -> Vec<&str> {
    owned.iter().map(String::as_str).collect()
}

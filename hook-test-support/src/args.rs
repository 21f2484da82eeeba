//! Command lines as the tests build them.

use std::path::Path;

use hook_protocol::{Dialect, Event};

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

/// `relay --dialect DIALECT --event EVENT --home HOME --project PROJECT`: the relay as an
/// agent's installed entry starts it, as owned words.
pub fn relay(dialect: Dialect, event: &Event, home: &Path, project: &Path) -> Vec<String> {
    let mut all = located("relay", dialect.as_str(), home, project);
    all.splice(3..3, ["--event".to_owned(), event.as_str().to_owned()]);
    all
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use hook_protocol::{Dialect, Event};

    #[test]
    fn the_relay_line_is_the_one_an_installed_entry_runs() {
        let line = super::relay(
            Dialect::Verboo,
            &Event::PreToolUse,
            Path::new("/h"),
            Path::new("/p"),
        );
        assert_eq!(
            super::words(&line),
            [
                "relay",
                "--dialect",
                "verboo",
                "--event",
                "PreToolUse",
                "--home",
                "/h",
                "--project",
                "/p"
            ]
        );
    }
}

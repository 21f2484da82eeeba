//! The commands `hook` suggests: quoted, with the same `--home`/`--project`/`--relay`.

use crate::ops::location::Location;

use super::quote::shell_quote;

/// `location`'s `--home`, `--project` and `--relay` flags as a command line names them (each
/// with its leading space).
pub(crate) fn location_flags(location: &Location) -> String {
    let mut extra = String::new();
    if let Some(home) = &location.home {
        extra.push_str(&format!(
            " --home {}",
            shell_quote(&home.display().to_string())
        ));
    }
    if let Some(project) = &location.project {
        extra.push_str(&format!(
            " --project {}",
            shell_quote(&project.display().to_string())
        ));
    }
    if location.relay {
        extra.push_str(" --relay");
    }
    extra
}

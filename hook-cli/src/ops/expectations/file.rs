//! Where a project's expectations file is (see the module docs of [`super`]): the dialect's
//! project folder, the relay's beside the agent, and the place earlier versions read.

use std::path::{Path, PathBuf};

use hook_config::Diagnostic;

use super::{FILE_NAME, with_relay};
use crate::ops::location::Location;

/// The expectations file of `location`'s project (see the module docs), whether it exists or
/// not.
#[derive(Debug)]
pub(crate) struct DefaultFile {
    /// The file read: the first of the places that exists, else the first place.
    pub(crate) file: PathBuf,
    /// Every place looked at, in order.
    pub(crate) places: Vec<PathBuf>,
    /// Said when the file is read from an earlier version's place.
    pub(crate) warning: Option<Diagnostic>,
}

/// The expectations file of `location`'s project (see the module docs).
pub(crate) fn default_file(location: &Location, project: &Path) -> DefaultFile {
    let rules = location.dialect.rules();
    let dialects = project.join(rules.config().home_dir()).join(FILE_NAME);
    let relays = |location: &Location| {
        let mut options = location.load_options().ok()?;
        options.project_dir = Some(project.to_owned());
        hook_config::discover(&options)
            .ok()?
            .project_state_dir
            .map(|dir| dir.join(FILE_NAME))
    };
    let mut places = vec![dialects.clone()];
    if location.relay {
        places.insert(0, relays(location).unwrap_or_else(|| dialects.clone()));
    } else if let Some(relay) = with_relay(location).get(1) {
        places.extend(relays(relay));
    }
    places.dedup();
    let exists = |path: &PathBuf| std::fs::symlink_metadata(path).is_ok();
    let file = places
        .iter()
        .find(|path| exists(path))
        .unwrap_or(&places[0])
        .clone();
    // The relay's file read from the dialect's project folder, which its users never see.
    let unseen = rules
        .agent()
        .relay()
        .is_some_and(|agent| agent.home_dir != rules.config().home_dir());
    let warning = (location.relay && unseen && places.len() > 1 && file != places[0]).then(|| {
        Diagnostic::warning(
            file.display().to_string(),
            None,
            format!(
                "read from the place of an earlier version of `hook relay`: move it to {}",
                places[0].display()
            ),
        )
    });
    DefaultFile {
        file,
        places,
        warning,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::ops::scene::Scene;
    use hook_protocol::Dialect;

    #[test]
    fn the_relays_file_is_in_its_folder_beside_the_agent_and_the_old_place_is_still_read() {
        let scene = Scene::new();
        for home in ["home/.lime", "home/.claude"] {
            std::fs::create_dir_all(scene.path(home)).unwrap();
        }
        let project = scene.project();
        let lime = scene.location(Dialect::Lime, ".lime");
        let relay = Location {
            relay: true,
            ..lime.clone()
        };
        let (own, beside) = (
            project.join(".lime").join(FILE_NAME),
            project.join(".codex/hook-relay").join(FILE_NAME),
        );
        // None yet: the relay's place is named first with `--relay`, the dialect's without.
        assert_eq!(
            default_file(&relay, &project).places,
            [beside.clone(), own.clone()]
        );
        assert_eq!(
            default_file(&lime, &project).places,
            [own.clone(), beside.clone()]
        );
        // Only the old place has one: read, with where to move it (`--relay` only).
        scene.write("project/.lime/hook-expectations.toml", "");
        let found = default_file(&relay, &project);
        assert_eq!(found.file, own);
        let warning = found.warning.unwrap();
        assert!(warning.message.contains("move it to"), "{warning}");
        assert!(warning.message.contains(".codex/hook-relay"), "{warning}");
        assert!(default_file(&lime, &project).warning.is_none());
        // The relay's own: read by both, the dialect's own first without `--relay`.
        scene.write("project/.codex/hook-relay/hook-expectations.toml", "");
        let found = default_file(&relay, &project);
        assert_eq!(
            (found.file, found.warning.is_none()),
            (beside.clone(), true)
        );
        std::fs::remove_file(&own).unwrap();
        assert_eq!(default_file(&lime, &project).file, beside);
        // Claude Code's own folder is the agent's: no warning when the relay reads it.
        let verboo = Location {
            relay: true,
            ..scene.location(Dialect::Verboo, ".claude")
        };
        scene.write("project/.claude/hook-expectations.toml", "");
        let found = default_file(&verboo, &project);
        assert_eq!(found.file, project.join(".claude").join(FILE_NAME));
        assert!(found.warning.is_none());
    }
}

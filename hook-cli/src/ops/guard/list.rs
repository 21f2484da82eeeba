//! `hook guard list`: each guard, and where it is switched on: per agent whose relay runs
//! hooks of its own files (Claude Code, Codex), in the relay's user file and the project's,
//! with the options its entry gives. Read through the relay's read model; nothing is written.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use hook_config::LoadOptions;
use hook_protocol::Layer;

use super::GuardLine;
use crate::ops::relay::agents::ADAPTERS;
use crate::ops::relay::read::files::{read_regular, relay_options};

/// One entry of a guard in a relay file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct On {
    /// The guard's name.
    pub(crate) guard: &'static str,
    /// The agent (`Claude Code`, `Codex CLI`) and how `--agent` names it.
    pub(crate) agent: &'static str,
    pub(crate) agent_name: &'static str,
    /// Whose: the user's, or the project's.
    pub(crate) project: bool,
    /// The relay file.
    pub(crate) file: PathBuf,
    /// The options its entry gives (`KEY=VALUE`, what differs from the defaults).
    pub(crate) sets: Vec<String>,
}

/// Where the guards are on, and the relay files that could not be read.
#[derive(Debug, Default)]
pub(crate) struct Switched {
    pub(crate) on: Vec<On>,
    /// `(file, why)`.
    pub(crate) unreadable: Vec<(PathBuf, String)>,
}

/// Every guard entry in the relay files of the user (or `home`) and of `project` (default: the
/// current directory), for each agent.
///
/// # Errors
///
/// When the current directory cannot be read, or a project given does not exist.
pub(crate) fn switched_on(project: Option<&Path>, home: Option<&Path>) -> Result<Switched> {
    let project = match project {
        Some(dir) => dir
            .canonicalize()
            .with_context(|| format!("project directory {} does not exist", dir.display()))?,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let mut switched = Switched::default();
    for adapter in ADAPTERS {
        let dialect = adapter.dialect();
        let options: LoadOptions = relay_options(dialect, Some(&project), home);
        let Ok(discovery) = hook_config::discover(&options) else {
            continue;
        };
        for file in discovery.files.iter().filter(|f| !f.hooks_only) {
            let in_project = match file.layer {
                Layer::User => false,
                Layer::Project | Layer::Local => true,
                _ => continue,
            };
            let text = match read_regular(&file.path) {
                Ok(Some((text, _))) => text,
                Ok(None) => continue,
                Err(error) => {
                    switched
                        .unreadable
                        .push((file.path.clone(), format!("{error:#}")));
                    continue;
                }
            };
            let found = adapter
                .open(&text, &file.path)
                .and_then(|doc| doc.found_where(&|c| GuardLine::parse(c).is_some()));
            let found = match found {
                Ok(found) => found,
                Err(error) => {
                    switched
                        .unreadable
                        .push((file.path.clone(), format!("{error:#}")));
                    continue;
                }
            };
            for entry in found {
                let Some(line) = GuardLine::parse(&entry.command) else {
                    continue;
                };
                switched.on.push(On {
                    guard: line.guard.name,
                    agent: adapter.title(),
                    agent_name: crate::ops::agents::name(dialect),
                    project: in_project,
                    file: file.path.clone(),
                    sets: line.sets,
                });
            }
        }
    }
    Ok(switched)
}

//! Where each dialect's configuration lives: homes, files and plugins.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use hook_protocol::{Dialect, Layer};

/// The environment discovery reads: a few variables and the current directory.
///
/// An explicit value, so embedders and tests never have to mutate the process environment.
/// [`Environment::from_process`] reads the real one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    vars: BTreeMap<String, OsString>,
    current_dir: Option<PathBuf>,
}

/// The variables discovery reads.
///
/// The managed layer is never chosen by the environment: whoever
/// controls it (a devcontainer, an `.envrc`, a wrapper) could drop the administrator's policy or
/// make any file "managed", i.e. run unreviewed. Use [`LoadOptions::with_managed_file`].
pub const ENV_VARS: &[&str] = &["HOME", "WUU_HOME", "LIME_HOME"];

/// Where the managed layer (the administrator's policy) is read from. wuu has none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ManagedSource {
    /// The dialect's fixed system path ([`ConfigRules::managed_path`](hook_protocol::ConfigRules::managed_path): verboo
    /// `/etc/claude-code/managed-settings.json`, lime `/etc/lime/managed_config.toml`),
    /// honoured only when owned by root and not group- or world-writable; otherwise an error
    /// diagnostic names the file and the fix, and the layer is not loaded.
    #[default]
    System,
    /// A file the embedder names (a test, an agent with its own policy location). It must not
    /// be group- or world-writable, and must be owned by root **or by the effective user**:
    /// the embedder's code vouches for the path (the environment never can), and tests must
    /// pass for any user.
    File(PathBuf),
    /// No managed layer at all.
    None,
}

impl Environment {
    /// An environment with no variables and no current directory.
    pub fn empty() -> Self {
        Self::default()
    }

    /// The process's values of [`ENV_VARS`] (and of the variables naming the homes of the
    /// agents `hook relay` speaks for, [`RelayAgent::home_env`](hook_protocol::RelayAgent)) and
    /// its current directory.
    pub fn from_process() -> Self {
        let relay_homes = Dialect::ALL
            .iter()
            .filter_map(|dialect| dialect.rules().agent().relay().map(|agent| agent.home_env));
        let vars = ENV_VARS
            .iter()
            .copied()
            .chain(relay_homes)
            .filter_map(|name| Some((name.to_owned(), std::env::var_os(name)?)))
            .collect();
        Environment {
            vars,
            current_dir: std::env::current_dir().ok(),
        }
    }

    /// This environment with `name` set to `value`.
    pub fn with_var(mut self, name: impl Into<String>, value: impl Into<OsString>) -> Self {
        self.vars.insert(name.into(), value.into());
        self
    }

    /// This environment with `dir` as the current directory.
    pub fn with_current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// A variable's value; an empty value counts as unset.
    pub fn var(&self, name: &str) -> Option<&OsStr> {
        self.vars
            .get(name)
            .map(OsString::as_os_str)
            .filter(|v| !v.is_empty())
    }

    /// The current directory, if known.
    pub fn current_dir(&self) -> Option<&Path> {
        self.current_dir.as_deref()
    }

    /// This environment with no current directory: discovery then reads no project unless
    /// one is given ([`LoadOptions::with_project`]).
    pub fn without_current_dir(mut self) -> Self {
        self.current_dir = None;
        self
    }
}

/// Hooks an embedding agent adds for one session, in the dialect's own shape as JSON
/// (`{"hooks": {...}}`; lime uses its plugin `hooks.json` shape).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionHooks {
    /// A name for the fragment; it appears in keys (`session:<name>:...`) and diagnostics.
    pub name: String,
    /// The JSON text.
    pub json: String,
}

/// Everything [`crate::load`] needs.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Whose files and rules.
    pub dialect: Dialect,
    /// Replaces the dialect's home (`--home DIR`).
    pub home: Option<PathBuf>,
    /// The project directory (`--project DIR`); the environment's current directory when
    /// `None`.
    pub project_dir: Option<PathBuf>,
    /// The environment variables and current directory.
    pub env: Environment,
    /// Session hooks, merged last.
    pub session: Vec<SessionHooks>,
    /// Tool-name aliases, alias → the agent's canonical tool name. A matcher naming either side
    /// matches the other, and a handler matched under several names runs once. lime starts with
    /// `Edit` and `Write` for `apply_patch` (the lime seed: file changes may be matched by the
    /// adapter's `Edit` and `Write` aliases; Codex does the same).
    pub tool_aliases: BTreeMap<String, String>,
    /// Where the managed layer comes from (verboo and lime).
    pub managed: ManagedSource,
    /// Read the relay's own files instead of the agent's ([`LoadOptions::for_relay`]).
    pub relay: bool,
    /// Read only the files of these layers (`None`: every layer;
    /// [`LoadOptions::with_only_layers`]).
    pub layers: Option<Vec<Layer>>,
}

/// The folder, beside the relayed agent's own settings, that holds the files `hook relay`
/// reads: in the agent's home (its [`RelayAgent::home_env`](hook_protocol::RelayAgent), else
/// `~/` + its `home_dir`) and in the project's agent folder. Claude Code (verboo):
/// `~/.claude/hook-relay/settings.json`, `<project>/.claude/hook-relay/settings.json` (and
/// `settings.local.json`); Codex (lime): `$CODEX_HOME/hook-relay/config.toml` (`~/.codex`),
/// `<project>/.codex/hook-relay/config.toml`.
///
/// The places of earlier versions, in the dialect's own home and project folder
/// (`~/.lime/hook-relay/`, `<project>/.lime/hook-relay/`), are still read when the new file
/// does not exist, with a warning ([`Discovery::warnings`]) that says where to move the file;
/// when both exist, the new one is read and the warning says the old one is not. A `--home`
/// given to discovery ([`LoadOptions::with_home`]) names the relay's user folder's parent
/// itself: `<home>/hook-relay/`.
///
/// The relay's state (trust records, journal, private copies) is kept in its user folder too
/// ([`Discovery::state_dir`]), and the project's expectations file in its project folder
/// ([`Discovery::project_state_dir`]).
pub const RELAY_DIR: &str = "hook-relay";

impl LoadOptions {
    /// Options for `dialect` in `env`, with no overrides (and the dialect's own tool aliases).
    pub fn new(dialect: Dialect, env: Environment) -> Self {
        let tool_aliases = dialect
            .rules()
            .matching()
            .tool_aliases()
            .iter()
            .map(|(alias, canonical)| ((*alias).to_owned(), (*canonical).to_owned()))
            .collect();
        LoadOptions {
            dialect,
            home: None,
            project_dir: None,
            env,
            session: Vec::new(),
            tool_aliases,
            managed: ManagedSource::System,
            relay: false,
            layers: None,
        }
    }

    /// These options reading the relay's files ([`RELAY_DIR`]) instead of the agent's: the hooks
    /// `hook relay` runs for an agent that calls it as its one hook. They live apart from the
    /// agent's own entries, which the agent runs itself, so nothing runs twice; for the same
    /// reason the managed layer is not read (the agent runs it). Plugins are still the
    /// dialect's home's; the relay's state (trust store, journal...) is beside the agent, in
    /// the relay's user folder ([`Discovery::state_dir`]).
    pub fn for_relay(mut self) -> Self {
        self.relay = true;
        self.managed = ManagedSource::None;
        self
    }

    /// These options reading only the files of `layers` (the others are not read, nor the
    /// plugins they would enable). `hook relay --scope user|project` reads the relay's user file
    /// alone, or the project's files alone: each scope's entries in the agent's settings start
    /// the relay for that scope's hooks only, so an agent that runs every matching entry (Codex)
    /// runs each relay hook once, however the entries' matchers overlap. The project stays known
    /// (the hooks' working directory and `CLAUDE_PROJECT_DIR`) when its files are not read.
    pub fn with_only_layers(mut self, layers: impl IntoIterator<Item = Layer>) -> Self {
        self.layers = Some(layers.into_iter().collect());
        self
    }

    /// These options with the managed layer read from `path` instead of the system path (see
    /// [`ManagedSource::File`] for the checks it must pass).
    pub fn with_managed_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.managed = ManagedSource::File(path.into());
        self
    }

    /// These options with no managed layer.
    pub fn without_managed(mut self) -> Self {
        self.managed = ManagedSource::None;
        self
    }

    /// These options with the home replaced.
    pub fn with_home(mut self, home: impl Into<PathBuf>) -> Self {
        self.home = Some(home.into());
        self
    }

    /// These options with a project directory.
    pub fn with_project(mut self, dir: impl Into<PathBuf>) -> Self {
        self.project_dir = Some(dir.into());
        self
    }

    /// These options with one more session fragment.
    pub fn with_session(mut self, name: impl Into<String>, json: impl Into<String>) -> Self {
        self.session.push(SessionHooks {
            name: name.into(),
            json: json.into(),
        });
        self
    }

    /// These options with one more tool alias.
    pub fn with_alias(mut self, alias: impl Into<String>, canonical: impl Into<String>) -> Self {
        self.tool_aliases.insert(alias.into(), canonical.into());
        self
    }
}

/// One configuration file a dialect reads (it may not exist).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConfigFile {
    /// Its layer.
    pub layer: Layer,
    /// Its path.
    pub path: PathBuf,
    /// A hooks-only JSON file read beside the layer's settings file
    /// ([`ConfigRules::hooks_file`](hook_protocol::ConfigRules::hooks_file), lime `hooks.json`): only its
    /// `hooks` are read.
    pub hooks_only: bool,
}

/// The files of one dialect, in merge order (managed, user, project, local; a layer's hooks
/// file before its settings file), and where the engine keeps its state for them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Discovery {
    /// The dialect.
    pub dialect: Dialect,
    /// The dialect's home (`~/.wuu`, `~/.claude`, `~/.lime` or the override): the user file's
    /// keys are named relative to it, and plugins live in it. For the engine's state, use
    /// [`Discovery::state_dir`], which is the home except for the relay.
    pub home: PathBuf,
    /// Where the engine keeps its state for these hooks: the trust store, the private copies
    /// of trusted files and the digest cache (`hook-trust`), the journal, lime's side files and
    /// the `CLAUDE_ENV_FILE` folders (`hook-exec`, `hook`). Every consumer asks this field;
    /// none computes a folder of its own.
    ///
    /// The rule: the dialect's home ([`Discovery::home`]), except for the relay
    /// ([`LoadOptions::for_relay`]) of a dialect that speaks for an agent
    /// ([`RelayAgent`](hook_protocol::RelayAgent)), whose state sits beside the agent, in the
    /// relay's user folder (the one whose file is read, see [`RELAY_DIR`]): Codex
    /// `$CODEX_HOME/hook-relay/` (`~/.codex/hook-relay/`), Claude Code `~/.claude/hook-relay/`.
    /// So a Codex user's trust records, journal and copies are where their relay hooks are, and
    /// `~/.lime` stays the lime dialect's own. With a home given by the caller
    /// ([`LoadOptions::with_home`], `--home`), the state is in that home for the relay too, as
    /// it always was. Nothing is created here: the consumers create their folders when first
    /// needed, private (`crate::fs`).
    pub state_dir: PathBuf,
    /// Where an earlier version kept the same state, when that was elsewhere: for the relay
    /// beside an agent, the dialect's home (`~/.lime`, `~/.claude`). `None` when it was
    /// [`Discovery::state_dir`] itself. Read only to move what belongs to these hooks (the
    /// CLI moves the relay's trust records once, and says so).
    pub legacy_state_dir: Option<PathBuf>,
    /// The project's folder beside these hooks, for the files the engine reads from the
    /// project besides the hooks themselves (the CLI's expectations file): the project's agent
    /// folder (`<project>/.lime`), or for the relay its project folder
    /// (`<project>/.codex/hook-relay`); `None` without a project.
    pub project_state_dir: Option<PathBuf>,
    /// The project directory, if any.
    pub project: Option<PathBuf>,
    /// The settings files, in merge order. Plugins are found through the user file.
    pub files: Vec<ConfigFile>,
    /// What the loader should tell the user about where files are, as `(file, message)` (a
    /// relay file read from the place of an earlier version, see [`RELAY_DIR`]).
    pub warnings: Vec<(PathBuf, String)>,
}

impl Discovery {
    /// Where plugins live: `<home>/plugins`.
    pub fn plugins_dir(&self) -> PathBuf {
        self.home.join("plugins")
    }

    /// The user layer's settings file.
    pub fn user_file(&self) -> Option<&Path> {
        self.files
            .iter()
            .find(|f| f.layer == Layer::User && !f.hooks_only)
            .map(|f| f.path.as_path())
    }
}

/// Discovery could not find where configuration lives.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DiscoverError {
    /// No home override, no dialect home variable and no `HOME`.
    #[error(
        "cannot find the {dialect} home: set HOME{} or pass a home directory",
        dialect.rules().config().home_env().map(|var| format!(", {var}")).unwrap_or_default()
    )]
    NoHome {
        /// The dialect.
        dialect: Dialect,
    },
}

/// The files `options.dialect` reads, in merge order.
///
/// # Errors
///
/// [`DiscoverError::NoHome`] when no home is given and none can be found in the environment.
pub fn discover(options: &LoadOptions) -> Result<Discovery, DiscoverError> {
    let env = &options.env;
    let dialect = options.dialect;
    let rules = dialect.rules();
    let home = options
        .home
        .clone()
        .or_else(|| {
            rules
                .config()
                .home_env()
                .and_then(|v| env.var(v))
                .map(PathBuf::from)
        })
        .or_else(|| {
            env.var("HOME")
                .map(|h| Path::new(h).join(rules.config().home_dir()))
        })
        .ok_or(DiscoverError::NoHome { dialect })?;
    let project = options
        .project_dir
        .clone()
        .or_else(|| env.current_dir().map(Path::to_path_buf));
    let mut files = Vec::new();
    let managed = |system: &str| match &options.managed {
        ManagedSource::System => Some(PathBuf::from(system)),
        ManagedSource::File(path) => Some(path.clone()),
        ManagedSource::None => None,
    };
    if let Some(path) = rules.config().managed_path().and_then(managed) {
        files.push(file(Layer::Managed, path));
    }
    let mut warnings = Vec::new();
    let (user_dir, project_dir) = if options.relay {
        let dirs = relay_dirs(options, &home, project.as_deref());
        // Where a layer is not read, nothing is said of its files.
        let reads = |layer: Layer| options.layers.as_ref().is_none_or(|l| l.contains(&layer));
        let mut ignored = Vec::new();
        let said = if reads(Layer::User) {
            &mut warnings
        } else {
            &mut ignored
        };
        let user = pick_relay_dir(dirs.user, rules.config().config_file(), said);
        let said = if reads(Layer::Project) {
            &mut warnings
        } else {
            &mut ignored
        };
        let project = dirs
            .project
            .map(|dirs| pick_relay_dir(dirs, rules.config().config_file(), said));
        (user, project)
    } else {
        (
            home.clone(),
            project.as_ref().map(|p| p.join(rules.config().home_dir())),
        )
    };
    // The relay's state sits in the folder of its user file, beside the agent's own settings;
    // a home given by the caller keeps it in that home (see `STATE_DIRS`).
    let beside_agent = options.relay && options.home.is_none() && rules.agent().relay().is_some();
    let (state_dir, legacy_state_dir) = if beside_agent && user_dir != home {
        (user_dir.clone(), Some(home.clone()))
    } else {
        (home.clone(), None)
    };
    let project_state_dir = project_dir.clone();
    // The layer's hooks file (lime `hooks.json`), then its settings file, as Codex orders them.
    let mut layer = |layer: Layer, dir: &Path| {
        if let Some(name) = rules.config().hooks_file() {
            files.push(ConfigFile {
                hooks_only: true,
                ..file(layer, dir.join(name))
            });
        }
        files.push(file(layer, dir.join(rules.config().config_file())));
    };
    layer(Layer::User, &user_dir);
    if let Some(dir) = project_dir {
        layer(Layer::Project, &dir);
        if let Some(local) = rules.config().local_config_file() {
            files.push(file(Layer::Local, dir.join(local)));
        }
    }
    if let Some(layers) = &options.layers {
        files.retain(|f| layers.contains(&f.layer));
    }
    Ok(Discovery {
        dialect,
        home,
        state_dir,
        legacy_state_dir,
        project_state_dir,
        project,
        files,
        warnings,
    })
}

/// The relay's folders of one scope: where they are now, and where an earlier version kept
/// them (`None` when that is the same place).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RelayDirs {
    /// The folder of the relay's files now.
    pub current: PathBuf,
    /// The folder an earlier version used, if it differs.
    pub legacy: Option<PathBuf>,
}

/// The relay's user and project folders.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RelayLocations {
    /// The user's relay folder.
    pub user: RelayDirs,
    /// The project's relay folder, when there is a project.
    pub project: Option<RelayDirs>,
}

/// Where `hook relay` keeps its files for `options.dialect` (see [`RELAY_DIR`]); `home` is the
/// dialect's home as discovery found it.
pub fn relay_dirs(options: &LoadOptions, home: &Path, project: Option<&Path>) -> RelayLocations {
    let rules = options.dialect.rules();
    let env = &options.env;
    let agent = rules.agent().relay();
    let user = match (&options.home, agent) {
        (None, Some(agent)) => {
            let agent_home = env
                .var(agent.home_env)
                .map(PathBuf::from)
                .or_else(|| env.var("HOME").map(|h| Path::new(h).join(agent.home_dir)));
            match agent_home {
                Some(agent_home) => relay_pair(agent_home.join(RELAY_DIR), home.join(RELAY_DIR)),
                None => relay_pair(home.join(RELAY_DIR), home.join(RELAY_DIR)),
            }
        }
        _ => relay_pair(home.join(RELAY_DIR), home.join(RELAY_DIR)),
    };
    let project = project.map(|project| {
        let agent_dir = agent.map_or(rules.config().home_dir(), |agent| agent.home_dir);
        relay_pair(
            project.join(agent_dir).join(RELAY_DIR),
            project.join(rules.config().home_dir()).join(RELAY_DIR),
        )
    });
    RelayLocations { user, project }
}

fn relay_pair(current: PathBuf, legacy: PathBuf) -> RelayDirs {
    let legacy = (legacy != current).then_some(legacy);
    RelayDirs { current, legacy }
}

/// The folder whose `file_name` is read: the current one, unless only the legacy one has
/// the file; a warning says where to move a legacy file.
fn pick_relay_dir(
    dirs: RelayDirs,
    file_name: &str,
    warnings: &mut Vec<(PathBuf, String)>,
) -> PathBuf {
    let Some(legacy) = dirs.legacy else {
        return dirs.current;
    };
    let old = legacy.join(file_name);
    let new = dirs.current.join(file_name);
    // `symlink_metadata`: a link counts as there (the loader reports a broken one).
    let exists = |path: &Path| std::fs::symlink_metadata(path).is_ok();
    match (exists(&new), exists(&old)) {
        (false, true) => {
            warnings.push((
                old,
                format!(
                    "read from the place of an earlier version of `hook relay`: move it to {}",
                    new.display()
                ),
            ));
            legacy
        }
        (true, true) => {
            warnings.push((
                old,
                format!(
                    "not read: `hook relay` reads {} now (merge the two, then remove this one)",
                    new.display()
                ),
            ));
            dirs.current
        }
        _ => dirs.current,
    }
}

fn file(layer: Layer, path: PathBuf) -> ConfigFile {
    ConfigFile {
        layer,
        path,
        hooks_only: false,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn relay_files(home: &Path, project: &Path, dialect: Dialect) -> Discovery {
        let env = Environment::empty().with_var("HOME", home.as_os_str());
        let options = LoadOptions::new(dialect, env)
            .with_project(project)
            .for_relay();
        discover(&options).unwrap()
    }

    #[test]
    fn codex_relay_files_sit_beside_codexs_own_and_the_old_places_are_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let (home, project) = (dir.path().join("home"), dir.path().join("app"));
        let found = relay_files(&home, &project, Dialect::Lime);
        let paths: Vec<_> = found.files.iter().map(|f| f.path.clone()).collect();
        // Each folder's `hooks.json` first, as in Codex's own folders.
        assert_eq!(
            paths,
            [
                home.join(".codex/hook-relay/hooks.json"),
                home.join(".codex/hook-relay/config.toml"),
                project.join(".codex/hook-relay/hooks.json"),
                project.join(".codex/hook-relay/config.toml"),
            ]
        );
        assert!(found.warnings.is_empty());
        // Only the old project file exists: it is read, with where to move it.
        let old = project.join(".lime/hook-relay/config.toml");
        std::fs::create_dir_all(old.parent().unwrap()).unwrap();
        std::fs::write(&old, "").unwrap();
        let found = relay_files(&home, &project, Dialect::Lime);
        assert_eq!(found.files[3].path, old);
        assert_eq!(found.warnings.len(), 1);
        assert!(
            found.warnings[0].1.contains("move it to"),
            "{:?}",
            found.warnings
        );
        // Both exist: the new one is read, and the old one is said to be ignored.
        let new = project.join(".codex/hook-relay/config.toml");
        std::fs::create_dir_all(new.parent().unwrap()).unwrap();
        std::fs::write(&new, "").unwrap();
        let found = relay_files(&home, &project, Dialect::Lime);
        assert_eq!(found.files[3].path, new);
        assert!(
            found.warnings[0].1.contains("not read"),
            "{:?}",
            found.warnings
        );
        // The agent's home variable moves the user folder.
        let codex_home = dir.path().join("codex");
        let env = Environment::empty()
            .with_var("HOME", home.as_os_str())
            .with_var("CODEX_HOME", codex_home.as_os_str());
        let found = discover(&LoadOptions::new(Dialect::Lime, env).for_relay()).unwrap();
        assert_eq!(
            found.files[1].path,
            codex_home.join("hook-relay/config.toml")
        );
    }

    #[test]
    fn the_relays_state_sits_beside_the_agent_and_the_dialects_own_stays_in_its_home() {
        let dir = tempfile::tempdir().unwrap();
        let (home, project) = (dir.path().join("home"), dir.path().join("app"));
        let codex_home = dir.path().join("codex");
        let env = Environment::empty()
            .with_var("HOME", home.as_os_str())
            .with_var("CODEX_HOME", codex_home.as_os_str());
        let lime = LoadOptions::new(Dialect::Lime, env.clone()).with_project(&project);
        // The relay of Codex: in `$CODEX_HOME/hook-relay`, moved from `~/.lime`.
        let found = discover(&lime.clone().for_relay()).unwrap();
        assert_eq!(found.home, home.join(".lime"));
        assert_eq!(found.state_dir, codex_home.join("hook-relay"));
        assert_eq!(found.legacy_state_dir, Some(home.join(".lime")));
        assert_eq!(
            found.project_state_dir,
            Some(project.join(".codex/hook-relay"))
        );
        // The lime dialect itself keeps `~/.lime` for everything.
        let found = discover(&lime.clone()).unwrap();
        assert_eq!(found.state_dir, home.join(".lime"));
        assert_eq!(found.legacy_state_dir, None);
        assert_eq!(found.project_state_dir, Some(project.join(".lime")));
        // A home given by the caller keeps the relay's state in it, as before.
        let given = dir.path().join("given");
        let found = discover(&lime.with_home(&given).for_relay()).unwrap();
        assert_eq!((found.state_dir, found.legacy_state_dir), (given, None));
        // Claude Code's relay: `~/.claude/hook-relay`, moved from `~/.claude`.
        let claude = LoadOptions::new(Dialect::Verboo, env).with_project(&project);
        let found = discover(&claude.clone().for_relay()).unwrap();
        assert_eq!(found.state_dir, home.join(".claude/hook-relay"));
        assert_eq!(found.legacy_state_dir, Some(home.join(".claude")));
        assert_eq!(
            found.project_state_dir,
            Some(project.join(".claude/hook-relay"))
        );
        let found = discover(&claude).unwrap();
        assert_eq!(found.state_dir, home.join(".claude"));
        // While the relay's user file is read from an earlier version's place, its state is
        // kept there too: a new file beside the agent would hide the old one.
        let old = home.join(".lime/hook-relay/config.toml");
        std::fs::create_dir_all(old.parent().unwrap()).unwrap();
        std::fs::write(&old, "").unwrap();
        let env = Environment::empty().with_var("HOME", home.as_os_str());
        let found = discover(&LoadOptions::new(Dialect::Lime, env).for_relay()).unwrap();
        assert_eq!(found.state_dir, home.join(".lime/hook-relay"));
        assert_eq!(found.legacy_state_dir, Some(home.join(".lime")));
    }

    #[test]
    fn claude_code_relay_files_are_where_they_were() {
        let dir = tempfile::tempdir().unwrap();
        let (home, project) = (dir.path().join("home"), dir.path().join("app"));
        let found = relay_files(&home, &project, Dialect::Verboo);
        let paths: Vec<_> = found.files.iter().map(|f| f.path.clone()).collect();
        assert_eq!(
            paths,
            [
                home.join(".claude/hook-relay/settings.json"),
                project.join(".claude/hook-relay/settings.json"),
                project.join(".claude/hook-relay/settings.local.json"),
            ]
        );
    }

    #[test]
    fn only_the_layers_asked_for_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let (home, project) = (dir.path().join("home"), dir.path().join("app"));
        let env = Environment::empty().with_var("HOME", home.as_os_str());
        let options = LoadOptions::new(Dialect::Verboo, env)
            .with_project(&project)
            .for_relay();
        let layers = |options: LoadOptions| -> Vec<Layer> {
            discover(&options)
                .unwrap()
                .files
                .iter()
                .map(|f| f.layer)
                .collect()
        };
        assert_eq!(
            layers(options.clone()),
            [Layer::User, Layer::Project, Layer::Local]
        );
        assert_eq!(
            layers(options.clone().with_only_layers([Layer::User])),
            [Layer::User]
        );
        let project_only = options.with_only_layers([Layer::Project, Layer::Local]);
        assert_eq!(layers(project_only.clone()), [Layer::Project, Layer::Local]);
        // The project stays known when its files are the only ones read, or are not read.
        assert_eq!(discover(&project_only).unwrap().project, Some(project));
    }
}

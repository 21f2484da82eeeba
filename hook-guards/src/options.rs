//! A guard's options: declared by the guard ([`OptionSpec`]), given by the user as
//! `KEY=VALUE` (`hook guard add NAME --set protected-branches=main,release`) and read by the
//! guard from its [`Settings`].

use std::collections::BTreeMap;

use crate::Builtin;

/// What kind of value an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionKind {
    /// A comma-separated list (`main,release`); empty items are dropped.
    List,
    /// `true` or `false`.
    Flag,
}

/// One option a guard declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OptionSpec {
    /// Its name (`protected-branches`).
    pub name: &'static str,
    /// Its kind.
    pub kind: OptionKind,
    /// Its value when the user gives none, as the user would write it (`main,master`).
    pub default: &'static str,
    /// One line: what it changes.
    pub summary: &'static str,
}

impl OptionSpec {
    /// A list option.
    pub const fn list(
        name: &'static str,
        default: &'static str,
        summary: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::List,
            default,
            summary,
        }
    }

    /// A flag option.
    pub const fn flag(
        name: &'static str,
        default: &'static str,
        summary: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Flag,
            default,
            summary,
        }
    }
}

/// A bad `KEY=VALUE` option.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SettingsError {
    /// Not of the form `KEY=VALUE`.
    #[error("`{given}` is not KEY=VALUE: write the option as `--set KEY=VALUE`")]
    NotKeyValue {
        /// What was given.
        given: String,
    },
    /// The guard has no such option.
    #[error("the guard {guard} has no option `{key}`: its options are {known}")]
    Unknown {
        /// The guard.
        guard: &'static str,
        /// The key given.
        key: String,
        /// Its options, comma-separated.
        known: String,
    },
    /// A flag given something other than `true` or `false`.
    #[error("option `{key}` of the guard {guard} is `true` or `false`, not `{value}`")]
    NotAFlag {
        /// The guard.
        guard: &'static str,
        /// The option.
        key: String,
        /// What was given.
        value: String,
    },
}

/// The values of a guard's options: the defaults with the user's `KEY=VALUE`s over them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    values: BTreeMap<&'static str, String>,
}

impl Settings {
    /// `guard`'s defaults.
    pub fn defaults(guard: &Builtin) -> Settings {
        Settings {
            values: guard
                .options
                .iter()
                .map(|option| (option.name, option.default.to_owned()))
                .collect(),
        }
    }

    /// `guard`'s defaults with each `KEY=VALUE` of `given` over them, in order (a later value
    /// of the same key wins).
    ///
    /// # Errors
    ///
    /// A `given` item that is not `KEY=VALUE`, names no option of `guard`, or gives a flag
    /// something other than `true`/`false`.
    pub fn parse<S: AsRef<str>>(guard: &Builtin, given: &[S]) -> Result<Settings, SettingsError> {
        let mut settings = Settings::defaults(guard);
        for item in given {
            let item = item.as_ref();
            let Some((key, value)) = item.split_once('=') else {
                return Err(SettingsError::NotKeyValue {
                    given: item.to_owned(),
                });
            };
            let Some(option) = guard.options.iter().find(|option| option.name == key) else {
                return Err(SettingsError::Unknown {
                    guard: guard.name,
                    key: key.to_owned(),
                    known: guard
                        .options
                        .iter()
                        .map(|option| option.name)
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            };
            if option.kind == OptionKind::Flag && !matches!(value, "true" | "false") {
                return Err(SettingsError::NotAFlag {
                    guard: guard.name,
                    key: key.to_owned(),
                    value: value.to_owned(),
                });
            }
            settings.values.insert(option.name, value.to_owned());
        }
        Ok(settings)
    }

    /// The items of list option `name` (none for an unknown name).
    pub fn list(&self, name: &str) -> Vec<&str> {
        self.values.get(name).map_or_else(Vec::new, |value| {
            value
                .split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .collect()
        })
    }

    /// Whether flag option `name` is `true` (false for an unknown name).
    pub fn flag(&self, name: &str) -> bool {
        self.values.get(name).is_some_and(|value| value == "true")
    }

    /// The options that differ from `guard`'s defaults, as `KEY=VALUE`: what a hook entry
    /// must carry to run the guard with these settings.
    pub fn changed(&self, guard: &Builtin) -> Vec<String> {
        guard
            .options
            .iter()
            .filter_map(|option| {
                let value = self.values.get(option.name)?;
                (value != option.default).then(|| format!("{}={value}", option.name))
            })
            .collect()
    }
}

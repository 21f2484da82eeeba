//! `hook new NAME [--native] [--dialect D] [--path DIR] [--sdk DIR]`: scaffold a typed Rust hook crate on
//! `hook-sdk`.
//!
//! The crate depends on the published `hook-sdk` at exactly this binary's version (`=X.Y.Z`,
//! what `hook --version` says), so the hook is built against the SDK of the engine that wrote
//! it, wherever `hook` came from (npm, pip, `cargo install`): never on the checkout the binary
//! was built from. `--sdk DIR` makes it a path dependency on a `hook-sdk` folder instead, for
//! work on the SDK itself (and the tests that build a scaffold against the workspace's own
//! build). It holds a working hook (deny `rm -rf /` in Bash), tests that use
//! `hook_sdk::testing`, and a README with the config snippet of each dialect. With `--native`
//! the hook is a `cdylib` exporting the SDK's native ABI (`hook_sdk::export_native!`), which
//! the engine loads in-process (`{"type": "native", "library": ...}`); its tests also call the
//! exported symbol as the engine does.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use hook_protocol::Dialect;

/// The crate to create.
#[derive(Debug)]
pub(crate) struct Scaffold {
    /// The crate's name, also the hook binary's.
    pub(crate) name: String,
    /// The one dialect to write the README and tests for (default: all three).
    pub(crate) dialect: Option<Dialect>,
    /// Where (default: ./NAME); must not exist or be empty.
    pub(crate) path: Option<PathBuf>,
    /// The `hook-sdk` folder to depend on by path (default: the published `hook-sdk` at this
    /// binary's version).
    pub(crate) sdk: Option<PathBuf>,
    /// A native plugin instead of an executable.
    pub(crate) native: bool,
}

/// Where the scaffold's `hook-sdk` comes from.
#[derive(Debug)]
enum Sdk {
    /// The registry's `hook-sdk` at exactly this version (this binary's).
    Published(&'static str),
    /// A `hook-sdk` folder, absolute (`--sdk DIR`).
    Path(PathBuf),
}

/// The crate created.
#[derive(Debug)]
pub(crate) struct Created {
    /// Its folder, absolute.
    pub(crate) dir: PathBuf,
    /// What cargo builds: the binary's name, or the native library's file name.
    pub(crate) artifact: String,
}

/// Creates the crate `scaffold` describes; returns where.
pub(crate) fn create(args: &Scaffold) -> Result<Created> {
    let name = args.name.as_str();
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if !valid {
        bail!(
            "`{name}` is not a valid crate name: use letters, digits, `-` and `_`, not starting with a digit"
        );
    }
    let dir = args.path.clone().unwrap_or_else(|| PathBuf::from(name));
    if dir.exists()
        && dir
            .read_dir()
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        bail!(
            "{} already exists and is not empty: choose another --path",
            dir.display()
        );
    }
    let sdk = match &args.sdk {
        None => Sdk::Published(env!("CARGO_PKG_VERSION")),
        Some(dir) => Sdk::Path(sdk_folder(dir)?),
    };
    std::fs::create_dir_all(dir.join("src"))
        .with_context(|| format!("cannot create {}", dir.display()))?;
    let dir = dir.canonicalize()?;
    let dialects: Vec<Dialect> = match args.dialect {
        Some(dialect) => vec![dialect],
        None => Dialect::ALL.to_vec(),
    };
    let files = if args.native {
        [
            ("Cargo.toml", cargo_toml(name, &sdk, true)),
            ("src/lib.rs", native_lib_rs(name, &dialects)),
            ("README.md", native_readme(name, &dir, &sdk, &dialects)),
            (".gitignore", "/target\n".to_owned()),
        ]
    } else {
        [
            ("Cargo.toml", cargo_toml(name, &sdk, false)),
            ("src/main.rs", main_rs(name, &dialects)),
            ("README.md", readme(name, &dir, &sdk, &dialects)),
            (".gitignore", "/target\n".to_owned()),
        ]
    };
    for (file, text) in files {
        let path = dir.join(file);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let artifact = if args.native {
        library_file(name)
    } else {
        name.to_owned()
    };
    Ok(Created { dir, artifact })
}

/// `dir` (`--sdk DIR`), absolute, once it is seen to be a `hook-sdk` crate's folder.
fn sdk_folder(dir: &Path) -> Result<PathBuf> {
    let manifest = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).with_context(|| {
        format!(
            "--sdk {}: cannot read {}: name the hook-sdk folder of a checkout of the hooks workspace, or leave --sdk out to depend on the published hook-sdk {}",
            dir.display(),
            manifest.display(),
            env!("CARGO_PKG_VERSION")
        )
    })?;
    if !text
        .lines()
        .any(|line| line.trim() == r#"name = "hook-sdk""#)
    {
        bail!(
            "--sdk {}: {} is not hook-sdk's manifest (no `name = \"hook-sdk\"`): name the hook-sdk folder of a checkout of the hooks workspace",
            dir.display(),
            manifest.display()
        );
    }
    dir.canonicalize()
        .with_context(|| format!("--sdk {}: cannot resolve the folder", dir.display()))
}

/// The file name of the native library cargo builds for the crate `name` on this platform
/// (`libmy_hook.so`, `libmy_hook.dylib`, `my_hook.dll`).
fn library_file(name: &str) -> String {
    format!(
        "{}{}{}",
        std::env::consts::DLL_PREFIX,
        name.replace('-', "_"),
        std::env::consts::DLL_SUFFIX
    )
}

fn cargo_toml(name: &str, sdk: &Sdk, native: bool) -> String {
    let lib = if native {
        "\n[lib]\n# A shared library the engine loads in-process (`type = \"native\"`).\ncrate-type = [\"cdylib\"]\n"
    } else {
        ""
    };
    let (source, dependency, testing) = match sdk {
        Sdk::Published(version) => (
            "# The published hook-sdk at exactly the version of the `hook` that wrote this crate (`hook\n# --version`): the events, responses and output rules the hook is built with are the ones\n# that engine reads. Upgrade it with `hook`, to the same version.".to_owned(),
            format!("\"={version}\""),
            format!("{{ version = \"={version}\", features = [\"testing\"] }}"),
        ),
        Sdk::Path(dir) => {
            let dir = dir.display().to_string().replace('\\', "/");
            (
                "# hook-sdk from a folder (`hook new --sdk DIR`: work on the SDK itself). A hook for others\n# depends on the published crate at the version of its `hook`: `hook-sdk = \"=X.Y.Z\"`.".to_owned(),
                format!("{{ path = \"{dir}\" }}"),
                format!("{{ path = \"{dir}\", features = [\"testing\"] }}"),
            )
        }
    };
    format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2024"
publish = false
{lib}
[dependencies]
{source}
hook-sdk = {dependency}

[dev-dependencies]
# `hook_sdk::testing` (and the schema validation it does) for the tests only: the hook binary
# compiles no validator.
hook-sdk = {testing}

# A crate of its own, even when created inside another workspace.
[workspace]

[profile.dev.package."*"]
# No optimisation for dependencies: the first `cargo test` compiles hook-sdk and its
# dependencies (optimising them made it several times longer); the tests run a little slower.
opt-level = 0
"#
    )
}

/// The scaffolds' `handle` (`pub` in a library), in Rust source.
fn handle_source(public: bool) -> String {
    let visibility = if public { "pub " } else { "" };
    format!(
        r#"/// Answers one event: denies Bash commands that would delete the root directory.
{visibility}fn handle(event: &Event) -> Response {{
    match event.kind() {{
        EventKind::PreToolUse(call) => match &call.tool {{
            Tool::Bash {{ command, .. }} if command.contains("rm -rf /") => {{
                Response::deny("refusing to run `rm -rf /`")
            }}
            _ => Response::none(),
        }},
        // Every other event: no decision, written the dialect's way.
        _ => Response::none(),
    }}
}}
"#
    )
}

/// The scaffolds' tests of `handle` in each of `dialects`, in Rust source.
fn dialect_tests(dialects: &[Dialect]) -> String {
    let list = dialects
        .iter()
        .map(|d| format!("Dialect::{}", capitalized(*d)))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        r#"    const DIALECTS: &[Dialect] = &[{list}];

    #[test]
    fn denies_deleting_the_root_directory() {{
        for &dialect in DIALECTS {{
            // `testing::bash` spells the tool as the dialect does (wuu: `bash`); the assertion
            // also checks the output is valid for the dialect.
            testing::bash(dialect, "rm -rf /")
                .run(handle)
                .assert_blocked_because("rm -rf /");
        }}
    }}

    #[test]
    fn lets_other_commands_and_events_through() {{
        for &dialect in DIALECTS {{
            testing::bash(dialect, "cargo test").run(handle).assert_no_decision();
            testing::stop(dialect).run(handle).assert_no_decision();
        }}
    }}
"#
    )
}

fn main_rs(name: &str, dialects: &[Dialect]) -> String {
    let handle = handle_source(false);
    let tests = dialect_tests(dialects);
    format!(
        r#"//! `{name}`: a hook for wuu, verboo and lime, built with hook-sdk.
//!
//! It reads one event on stdin and answers the way the agent's dialect requires (the engine
//! sets `HOOK_DIALECT`; `--dialect` also works). Change `handle` to make it yours.

use hook_sdk::{{Event, EventKind, Response, Tool}};

{handle}
fn main() {{
    hook_sdk::run(handle)
}}

#[cfg(test)]
mod tests {{
    use super::handle;
    use hook_sdk::Dialect;
    use hook_sdk::testing;

{tests}}}
"#
    )
}

fn native_lib_rs(name: &str, dialects: &[Dialect]) -> String {
    let handle = handle_source(true);
    let tests = dialect_tests(dialects);
    format!(
        r#"//! `{name}`: a native (in-process) hook for wuu, verboo and lime, built with hook-sdk.
//!
//! Built as a shared library that the engine loads and calls in its own process (no process
//! per event): `hook_sdk::export_native!` exports the SDK's C ABI for `handle`. The dialect
//! comes from the engine. Change `handle` to make it yours.

use hook_sdk::{{Event, EventKind, Response, Tool}};

{handle}
hook_sdk::export_native!(handle);

#[cfg(test)]
mod tests {{
    use super::handle;
    use hook_sdk::Dialect;
    use hook_sdk::native::NativeOutput;
    use hook_sdk::testing;

{tests}
    /// What the engine gets from the exported symbols: (exit code, stdout).
    fn call_exported(dialect: Dialect, input: &str) -> (i32, String) {{
        let name = dialect.as_str();
        let mut out = NativeOutput::empty();
        // SAFETY: the buffers are valid for the lengths given and `out` is writable, as
        // `hook_sdk_call` requires.
        let status = unsafe {{
            super::hook_sdk_call(input.as_ptr(), input.len(), name.as_ptr(), name.len(), &mut out)
        }};
        assert_eq!(status, 0);
        let stdout = if out.stdout_ptr.is_null() {{
            Vec::new()
        }} else {{
            // SAFETY: filled by `hook_sdk_call` above, read before `hook_sdk_free`.
            unsafe {{ std::slice::from_raw_parts(out.stdout_ptr, out.stdout_len) }}.to_vec()
        }};
        let exit_code = out.exit_code;
        // SAFETY: filled by `hook_sdk_call` above, freed once.
        unsafe {{ super::hook_sdk_free(&mut out) }};
        (exit_code, String::from_utf8_lossy(&stdout).into_owned())
    }}

    #[test]
    fn the_exported_symbols_answer_as_the_engine_calls_them() {{
        for &dialect in DIALECTS {{
            let input = testing::bash(dialect, "rm -rf /").into_json().to_string();
            let (exit_code, stdout) = call_exported(dialect, &input);
            assert_eq!(exit_code, 0, "{{dialect}}");
            assert!(stdout.contains("refusing to run"), "{{dialect}}: {{stdout}}");
            let input = testing::stop(dialect).into_json().to_string();
            assert_eq!(call_exported(dialect, &input), (0, "{{}}\n".to_owned()), "{{dialect}}");
        }}
    }}
}}
"#
    )
}

/// What both scaffolds' READMEs say about building: where `hook-sdk` comes from, the first
/// build's time (measured: README.md) and how two hook crates share one build.
fn building(sdk: &Sdk) -> String {
    let source = match sdk {
        Sdk::Published(version) => format!(
            "`hook-sdk` is the published crate at exactly the version of the `hook` that created this\ncrate ({version}, as `hook --version` says; `=` in `Cargo.toml`): the hook is built against\nthe SDK of the engine that runs it. Upgrade both together: install the new `hook`, then set\nthe same version here."
        ),
        Sdk::Path(dir) => format!(
            "`hook-sdk` is a path dependency on {} (`hook new --sdk`).",
            dir.display()
        ),
    };
    format!(
        r#"{source}

The first `cargo test` compiles `hook-sdk` and its dependencies (about 30 s on two cores);
later ones take seconds. Several hook crates (say a command hook and a native one) can share
that build: `export CARGO_TARGET_DIR="$HOME/.cache/hook-target"` (or `[build] target-dir` in
`.cargo/config.toml`) before building both; the built hook is then under that folder's
`release/`, not `target/release/`.
"#
    )
}

fn native_readme(name: &str, dir: &Path, sdk: &Sdk, dialects: &[Dialect]) -> String {
    let library = dir
        .join("target/release")
        .join(library_file(name))
        .display()
        .to_string();
    let building = building(sdk);
    let mut text = format!(
        r#"# {name}

A native hook for AI coding agents, written in Rust with `hook-sdk`: a shared library the
engine loads in-process (`"type": "native"`, this project's extension), with no process per
event.

```sh
cargo test              # the hook's own tests (hook_sdk::testing, and the exported C ABI)
cargo build --release   # the library: {library}
```

{building}
A native hook shares the agent's process: it cannot be killed on timeout, and a
panic is caught only with `panic = "unwind"` (the default). The engine trusts the library by
its bytes (lime): a rebuilt library must be trusted again.

## Wiring it into your agent
"#
    );
    text.push_str(&wiring(dialects, "native", "library", &library));
    text
}

fn capitalized(dialect: Dialect) -> String {
    let name = dialect.as_str();
    let mut chars = name.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn readme(name: &str, dir: &Path, sdk: &Sdk, dialects: &[Dialect]) -> String {
    let binary = dir.join("target/release").join(name).display().to_string();
    let building = building(sdk);
    let mut text = format!(
        r#"# {name}

A hook for AI coding agents, written in Rust with `hook-sdk`.

```sh
cargo test              # the hook's own tests (hook_sdk::testing)
cargo build --release   # the hook: {binary}
```

{building}
Check the hook end to end with the `hook` command:
`hook test --dialect lime --event PreToolUse --tool Bash -- {binary}`.

## Wiring it into your agent
"#
    );
    // The snippet's command is shell text: the path is quoted, so a folder named `a b` or
    // `$(x)` is one word, never syntax.
    let command = crate::shell::quote(&binary);
    text.push_str(&wiring(dialects, "command", "command", &command));
    text
}

/// The README's "Wiring it into your agent" snippets: a `PreToolUse` handler of `kind` whose
/// `field` is `value`, in each dialect's file. Claude Code and Codex users are led to the
/// relay's file and `hook relay install` (the relay gates trust, journals each run and `hook
/// stats`/`hook doctor` see it), for the command scaffold as for the native one; the agents'
/// own files are named only where they run the hook themselves.
fn wiring(dialects: &[Dialect], kind: &str, field: &str, value: &str) -> String {
    let native = kind == "native";
    // A JSON string literal, quotes included, which TOML reads as the same basic string.
    let value = serde_json::Value::from(value).to_string();
    let json_group = format!(
        "{{\"hooks\": {{\"PreToolUse\": [{{\"matcher\": \"Bash\", \"hooks\": [{{\"type\": \"{kind}\", \"{field}\": {value}}}]}}]}}}}"
    );
    let toml_group = format!(
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"{kind}\"\n{field} = {value}\ntimeout = 10"
    );
    let mut text = String::new();
    for dialect in dialects {
        let snippet = match dialect {
            Dialect::Wuu => format!(
                "### wuu (`~/.wuu/config.json`)\n\n```json\n{{\"hooks\": {{\"PreToolUse\": [{{\"matcher\": \"bash\", \"type\": \"{kind}\", \"{field}\": {value}, \"timeout\": 10}}]}}}}\n```\n"
            ),
            Dialect::Verboo => {
                // Claude Code knows no `native` handler and ignores a whole settings file with
                // one in it; a command hook it could run itself, without trust or the journal.
                let own = if native {
                    "Never in Claude Code's own `settings.json`: Claude Code does not run `native` handlers and ignores the whole file with one in it (your `permissions` too)."
                } else {
                    "Claude Code can also run this command from its own `settings.json`, but then without the relay's trust check, journal, `hook stats` and `hook doctor`."
                };
                format!(
                    "### verboo (Claude Code: the relay's file, `~/.claude/hook-relay/settings.json` or `.claude/hook-relay/settings.json`)\n\n```json\n{json_group}\n```\n\nThen `hook relay install --dialect verboo` (once; `hook relay sync --dialect verboo` after editing the file) makes Claude Code call `hook relay`, which runs this file; review and trust the hook with `hook list --dialect verboo --relay` and `hook trust --dialect verboo --relay --all`. {own}\n"
                )
            }
            Dialect::Lime => {
                // Codex refuses to start with a `native` handler in its own config.
                let own = if native {
                    "Never in Codex's own `config.toml`: Codex does not run `native` handlers and refuses to start with one."
                } else {
                    "Codex can also run this command from its own `config.toml`, but then without the relay's journal, `hook stats` and `hook doctor`."
                };
                format!(
                    "### lime (Codex: the relay's file, `~/.codex/hook-relay/config.toml` or `.codex/hook-relay/config.toml`; an agent embedding this engine: `~/.lime/config.toml` or `.lime/config.toml`)\n\n```toml\n{toml_group}\n```\n\nThen `hook relay install --dialect lime` (once; `hook relay sync --dialect lime` after editing the file) makes Codex call `hook relay`, which runs this file; review and trust the hook with `hook list --dialect lime --relay` and `hook trust --dialect lime --relay --all`. {own} In an embedding agent's own lime files, trust it with `hook trust --dialect lime --all`.\n"
                )
            }
        };
        text.push('\n');
        text.push_str(&snippet);
    }
    text
}

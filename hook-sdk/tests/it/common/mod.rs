//! Shared set-up of the SDK's end-to-end tests: the built examples, a temporary home with a
//! config, dispatch through `hook_exec::Engine`.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used, dead_code, unreachable_pub)]

use hook_test_support::Scene;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use hook_config::{Environment, LoadOptions, load};
use hook_exec::Engine;
use hook_protocol::input::parse_input;
use hook_protocol::{Dialect, Outcome};
use serde_json::{Value, json};

/// The workspace's target directory.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
    }
}

/// The examples, built once per test process (a no-op when `cargo test` already built them).
pub fn examples_dir() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let status = cargo()
            // The very build `cargo test --workspace` makes (it builds the examples too), so this is
            // a no-op under it: `cargo build --examples` resolves features without the other crates'
            // dev-dependencies, and rebuilt tokio, hyper and reqwest with other features.
            .args(["test", "--quiet", "--workspace", "--no-run"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(status.success(), "building the examples failed");
        target_dir().join("debug").join("examples")
    })
}

/// The path of an example executable.
pub fn example(name: &str) -> PathBuf {
    examples_dir().join(name)
}

/// The path of the native example library.
pub fn native_example() -> PathBuf {
    let file = format!(
        "{}block_dangerous_bash_native{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    examples_dir().join(file)
}

/// What a handler entry runs.
#[derive(Clone)]
pub enum Runs {
    /// A command (an executable path).
    Command(PathBuf),
    /// A native library.
    Native(PathBuf),
}

/// A kit [`Scene`] whose home holds one config, its project the event's cwd.
pub struct Setup {
    pub scene: Scene,
    pub dialect: Dialect,
}

impl Setup {
    /// A home whose config runs `runs` on `event` for tools matching `matcher`.
    pub fn new(dialect: Dialect, event: &str, matcher: &str, runs: &Runs) -> Setup {
        Setup::with_handlers(dialect, event, matcher, std::slice::from_ref(runs))
    }

    /// A home whose config runs every handler of `runs`, in order.
    pub fn with_handlers(dialect: Dialect, event: &str, matcher: &str, runs: &[Runs]) -> Setup {
        let scene = Scene::new();
        let handler = |runs: &Runs| match runs {
            Runs::Command(path) => json!({"type": "command", "command": path, "timeout": 30}),
            Runs::Native(path) => json!({"type": "native", "library": path, "timeout": 30}),
        };
        let (name, text) = match dialect {
            Dialect::Wuu => {
                let entries: Vec<Value> = runs
                    .iter()
                    .map(|r| {
                        let mut h = handler(r);
                        h["matcher"] = json!(matcher);
                        h
                    })
                    .collect();
                (
                    "config.json",
                    json!({"hooks": {event: entries}}).to_string(),
                )
            }
            Dialect::Verboo => {
                let hooks: Vec<Value> = runs.iter().map(handler).collect();
                let config = json!({"hooks": {event: [{"matcher": matcher, "hooks": hooks}]}});
                ("settings.json", config.to_string())
            }
            Dialect::Lime => {
                let mut toml = format!("[[hooks.{event}]]\nmatcher = {matcher:?}\n");
                for r in runs {
                    let (kind, field, path) = match r {
                        Runs::Command(p) => ("command", "command", p),
                        Runs::Native(p) => ("native", "library", p),
                    };
                    toml.push_str(&format!(
                        "[[hooks.{event}.hooks]]\ntype = \"{kind}\"\n{field} = {:?}\ntimeout = 30\n",
                        path.display().to_string()
                    ));
                }
                ("config.toml", toml)
            }
        };
        scene.write(&format!("home/{name}"), &text);
        Setup { scene, dialect }
    }

    pub fn project(&self) -> PathBuf {
        self.scene.project()
    }

    pub fn engine(&self) -> Engine {
        let env = Environment::empty();
        let options = LoadOptions::new(self.dialect, env)
            .without_managed()
            .with_home(self.scene.home())
            .with_project(self.project());
        let loaded = load(&options).unwrap();
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        Engine::new(loaded.registry).with_gate(hook_exec::AllowAll)
    }

    /// A minimal input of `event` with `fields`, its cwd the project.
    pub fn input(&self, event: &str, fields: Value) -> Value {
        let mut input = hook_sdk::testing::input(self.dialect, event, fields);
        input["cwd"] = json!(self.project());
        input
    }

    /// Dispatches `input` through the engine.
    pub fn dispatch(&self, input: &Value) -> Outcome {
        let engine = self.engine();
        let input = parse_input(self.dialect, input.to_string().as_bytes()).unwrap();
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(engine.dispatch(&input))
    }
}

/// Runs an example executable directly (as the engine would, with `HOOK_DIALECT`), checks its
/// exit code is 0 and its stdout passes the protocol's validator; returns stdout as JSON.
pub fn run_and_validate(path: &Path, dialect: Dialect, input: &Value) -> Value {
    use std::io::Write;
    let mut child = Command::new(path)
        .env("HOOK_DIALECT", dialect.as_str())
        .current_dir(input["cwd"].as_str().unwrap_or("."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let event = hook_protocol::Event::from_name(input["hook_event_name"].as_str().unwrap());
    if let Err(error) = hook_protocol::validate_output(dialect, &event, &output.stdout) {
        panic!(
            "{} wrote invalid {dialect} {event} output {}: {error}",
            path.display(),
            String::from_utf8_lossy(&output.stdout)
        );
    }
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The tool name each dialect's agent uses for a common tool.
pub fn tool(dialect: Dialect, name: &str) -> String {
    match dialect {
        Dialect::Wuu => name.to_ascii_lowercase(),
        Dialect::Verboo | Dialect::Lime => name.to_owned(),
    }
}

/// The matcher selecting `name` in `dialect` (wuu: exact, case-insensitive; others: regex).
pub fn matcher(dialect: Dialect, names: &[&str]) -> String {
    match dialect {
        Dialect::Wuu => String::new(),
        Dialect::Verboo | Dialect::Lime => names.join("|"),
    }
}

/// Compiles a dependency-free `cdylib` from `source` with rustc.
pub fn raw_library(dir: &Path, name: &str, source: &str) -> PathBuf {
    rustc_cdylib(dir, name, source, &[])
}

/// Compiles a `cdylib` using `hook_sdk` (the rlib the workspace built for these tests).
pub fn sdk_library(dir: &Path, name: &str, source: &str) -> PathBuf {
    let deps = target_dir().join("debug").join("deps");
    let rlib = std::fs::read_dir(&deps)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.starts_with("libhook_sdk-") && n.ends_with(".rlib")
        })
        .max_by_key(|p| p.metadata().unwrap().modified().unwrap())
        .expect("hook_sdk's rlib in target/debug/deps");
    let extra = [
        "-C".to_owned(),
        "panic=unwind".to_owned(),
        "-L".to_owned(),
        format!("dependency={}", deps.display()),
        "--extern".to_owned(),
        format!("hook_sdk={}", rlib.display()),
    ];
    rustc_cdylib(dir, name, source, &extra)
}

/// Writes `source` to `dir/name.rs` and compiles it with rustc into a `cdylib` beside it.
fn rustc_cdylib(dir: &Path, name: &str, source: &str, extra: &[String]) -> PathBuf {
    let src = dir.join(format!("{name}.rs"));
    std::fs::write(&src, source).unwrap();
    let out = dir.join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let status = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args([
            "--edition",
            "2024",
            "--crate-type",
            "cdylib",
            "--crate-name",
            name,
        ])
        .args(extra)
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .status()
        .unwrap();
    assert!(status.success());
    out
}

#[path = "../../../../tests/support/nested_cargo.rs"]
mod nested_cargo;
use nested_cargo::cargo;

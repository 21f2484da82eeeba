//! Shared setup of the engine tests: a home folder with one user config, a project folder, and
//! inputs completed with each dialect's required fields.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
// Not every test file uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use hook_config::{Environment, LoadOptions, load};
use hook_exec::{Engine, EngineOptions};
use hook_protocol::input::{EventInput, parse_input};
use hook_protocol::{Dialect, Outcome, RunStatus};
use hook_test_support::Scene;
use hook_test_support::events::user_file;
use serde_json::{Value, json};

/// A home folder holding one user config file, and a project folder as the event's cwd.
pub(crate) struct Setup {
    pub(crate) scene: Scene,
    pub(crate) dialect: Dialect,
}

impl Setup {
    pub(crate) fn new(dialect: Dialect, config: &str) -> Setup {
        let scene = Scene::new();
        scene.write(&format!("home/{}", user_file(dialect)), config);
        Setup { scene, dialect }
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.scene.path(name)
    }

    pub(crate) fn engine(&self, options: EngineOptions) -> Engine {
        let env = Environment::empty();
        let options_load = LoadOptions::new(self.dialect, env)
            .without_managed()
            .with_home(self.path("home"))
            .with_project(self.path("project"));
        let loaded = load(&options_load).unwrap();
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        Engine::new(loaded.registry)
            .with_gate(hook_exec::AllowAll)
            .with_options(options)
    }

    /// `event` with the common fields added, parsed as this dialect's input.
    pub(crate) fn input(&self, mut event: Value) -> EventInput {
        complete(self.dialect, &mut event, &self.path("project"));
        parse_input(self.dialect, event.to_string().as_bytes()).unwrap()
    }
}

/// Adds the common fields each dialect's input requires.
pub(crate) fn complete(dialect: Dialect, event: &mut Value, cwd: &Path) {
    let object = event.as_object_mut().unwrap();
    object.insert("cwd".into(), json!(cwd));
    object.entry("session_id").or_insert(json!("s1"));
    if dialect == Dialect::Lime {
        object.entry("transcript_path").or_insert(Value::Null);
        object.entry("model").or_insert(json!("m"));
        object.entry("turn_id").or_insert(json!("t1"));
    }
    if object.contains_key("tool_name") && dialect != Dialect::Wuu {
        object.entry("tool_use_id").or_insert(json!("call-1"));
    }
}

pub(crate) fn statuses(outcome: &Outcome) -> Vec<RunStatus> {
    outcome.runs.iter().map(|r| r.status).collect()
}

pub(crate) fn pre_tool_use(tool: &str, command: &str) -> Value {
    json!({"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": {"command": command}})
}

/// A request the test server received.
#[cfg(feature = "http")]
#[derive(Debug, Clone)]
pub(crate) struct Received {
    /// The request line and headers, lowercased header names as sent.
    pub(crate) head: String,
    pub(crate) body: Vec<u8>,
}

#[cfg(feature = "http")]
impl Received {
    /// The value of header `name` (case-insensitive).
    pub(crate) fn header(&self, name: &str) -> Option<String> {
        self.head.lines().skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name)
                .then(|| value.trim().to_owned())
        })
    }

    pub(crate) fn path(&self) -> &str {
        self.head.split(' ').nth(1).unwrap_or("")
    }
}

/// What the test server answers.
#[cfg(feature = "http")]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
    pub(crate) delay: std::time::Duration,
}

#[cfg(feature = "http")]
impl Reply {
    pub(crate) fn new(status: u16, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            body: body.into(),
            delay: std::time::Duration::ZERO,
        }
    }
}

/// A real HTTP/1.1 server on 127.0.0.1 that answers each request with `reply(request)` and
/// records every request. It lives as long as the test's runtime.
#[cfg(feature = "http")]
pub(crate) struct Server {
    pub(crate) url: String,
    pub(crate) received: std::sync::Arc<std::sync::Mutex<Vec<Received>>>,
}

#[cfg(feature = "http")]
impl Server {
    pub(crate) async fn start(
        reply: impl Fn(&Received) -> Reply + Send + Sync + 'static,
    ) -> Server {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let received = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = std::sync::Arc::clone(&received);
        let reply = std::sync::Arc::new(reply);
        tokio::spawn(async move {
            loop {
                let Ok((mut stream, _)) = listener.accept().await else {
                    return;
                };
                let log = std::sync::Arc::clone(&log);
                let reply = std::sync::Arc::clone(&reply);
                tokio::spawn(async move {
                    let mut data = Vec::new();
                    let mut chunk = [0u8; 8192];
                    let head_end = loop {
                        if let Some(at) = data.windows(4).position(|w| w == b"\r\n\r\n") {
                            break at;
                        }
                        match stream.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => data.extend_from_slice(&chunk[..n]),
                        }
                    };
                    let head = String::from_utf8_lossy(&data[..head_end]).into_owned();
                    let mut request = Received {
                        head,
                        body: data[head_end + 4..].to_vec(),
                    };
                    let length: usize = request
                        .header("content-length")
                        .and_then(|l| l.parse().ok())
                        .unwrap_or(0);
                    while request.body.len() < length {
                        match stream.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.body.extend_from_slice(&chunk[..n]),
                        }
                    }
                    log.lock().unwrap().push(request.clone());
                    let answer = reply(&request);
                    tokio::time::sleep(answer.delay).await;
                    let head = format!(
                        "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                        answer.status,
                        answer.body.len()
                    );
                    let _ = stream.write_all(head.as_bytes()).await;
                    let _ = stream.write_all(&answer.body).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        Server { url, received }
    }

    pub(crate) fn requests(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

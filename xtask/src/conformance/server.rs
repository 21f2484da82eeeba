//! The fake model server the agents talk to: HTTP/1.1 by hand on 127.0.0.1, one thread.
//!
//! Three wires: OpenAI Responses (Codex), Anthropic Messages (Claude Code; Qwen Code and
//! Copilot CLI with their Anthropic providers, which answer to a Bearer token or `x-api-key`
//! alike: the server checks no key) and Google GenAI (Gemini CLI, [`genai`]).
//!
//! Script: the first *main* request (Codex: any `POST …/responses`; Messages: a `POST
//! …/messages` that offers a shell tool, [`shell::SHELL_TOOLS`]; GenAI: a `…:generateContent`
//! or `…:streamGenerateContent` that offers one) gets a tool call of that tool running
//! `command`, its other required fields filled ([`shell::call_arguments`]); every later
//! request of the turn gets a final text answer; a later turn of the session (the agent run
//! again on it) starts with a tool call running `later_command` if there is one, or a text
//! answer. Text answers come after `delay` (so the agent stays alive a while, e.g. for
//! its async hooks to finish). Every request body is logged, so a case can see what reached the
//! model.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result};
use serde_json::{Value, json};

mod genai;
mod shell;

/// What the fake model does.
#[derive(Clone, Debug)]
pub(crate) struct Script {
    /// The shell command of its one tool call.
    pub(crate) command: String,
    /// How long it takes for every later answer (the agent lives that much longer).
    pub(crate) delay: Duration,
    /// Codex: the call asks to run outside the sandbox (`sandbox_permissions:
    /// "require_escalated"`), so it needs an approval.
    pub(crate) escalate: bool,
    /// Codex: the call is the freeform `apply_patch` tool with `command` as the patch.
    pub(crate) patch: bool,
    /// How many times the first turn calls the tool (the same command) before its text answer:
    /// 1 for a case, more for `cargo xtask bench agents`.
    pub(crate) calls: usize,
    /// The shell command of a tool call at the start of every later turn of the session
    /// ([`FakeServer::next_turn`]); `None`: later turns get a text answer at once.
    pub(crate) later_command: Option<String>,
}

/// Which wire protocol the server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wire {
    /// OpenAI Responses API with SSE (Codex).
    Responses,
    /// Anthropic Messages API with SSE (Claude Code, Qwen Code, Copilot CLI).
    Messages,
    /// Google GenAI REST (`generateContent`, `streamGenerateContent?alt=sse`, `countTokens`):
    /// Gemini CLI.
    GenAi,
}

/// One logged request.
#[derive(Clone, Debug)]
pub(crate) struct Logged {
    /// The request path.
    pub(crate) path: String,
    /// The body, as text.
    pub(crate) body: String,
    /// Whether this was a main (agent-loop) request.
    pub(crate) main: bool,
    /// Whether it was answered with the script's tool call.
    pub(crate) call: bool,
    /// The turn of the session it belongs to (0: the first prompt; see
    /// [`FakeServer::next_turn`]).
    pub(crate) turn: usize,
}

/// A running fake server; it lives until the process exits (one per case, cheap).
pub(crate) struct FakeServer {
    /// The port on 127.0.0.1.
    pub(crate) port: u16,
    log: Arc<Mutex<Vec<Logged>>>,
    turn: Arc<Mutex<usize>>,
}

impl FakeServer {
    /// Starts a server that answers the first main request with the script's tool call and
    /// every later main request with text after the script's delay.
    pub(crate) fn start(wire: Wire, script: Script) -> Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").context("binding the fake model server")?;
        let port = listener.local_addr()?.port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let turn = Arc::new(Mutex::new(0));
        let shared = Arc::clone(&log);
        let shared_turn = Arc::clone(&turn);
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let log = Arc::clone(&shared);
                let turn = Arc::clone(&shared_turn);
                let script = script.clone();
                thread::spawn(move || {
                    let turn = turn.lock().map(|t| *t).unwrap_or(0);
                    let _ignored = serve(stream, wire, &script, &log, turn);
                });
            }
        });
        Ok(Self { port, log, turn })
    }

    /// The agent is about to be run again on the same session (a second prompt): requests from
    /// now on belong to the next turn, whose first main request gets the script's
    /// `later_command` as a tool call (or a text answer).
    pub(crate) fn next_turn(&self) {
        if let Ok(mut turn) = self.turn.lock() {
            *turn += 1;
        }
    }

    /// Every request so far.
    pub(crate) fn requests(&self) -> Vec<Logged> {
        self.log.lock().map(|log| log.clone()).unwrap_or_default()
    }
}

fn serve(
    stream: TcpStream,
    wire: Wire,
    script: &Script,
    log: &Mutex<Vec<Logged>>,
    turn: usize,
) -> Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(());
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or_default().to_owned();
    let mut length = 0usize;
    let mut chunked = false;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 {
            return Ok(());
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            let name = name.trim().to_ascii_lowercase();
            if name == "content-length" {
                length = value.trim().parse().unwrap_or(0);
            } else if name == "transfer-encoding" && value.contains("chunked") {
                chunked = true;
            }
        }
    }
    let body = if chunked {
        read_chunked(&mut reader)?
    } else {
        read_exact(&mut reader, length)?
    };
    let body = String::from_utf8_lossy(&body).into_owned();
    let Reply {
        status,
        content_type,
        payload,
        main,
        call,
    } = answer(wire, &method, &path, &body, script, log, turn);
    let later = log
        .lock()
        .is_ok_and(|log| log.iter().any(|r| r.main && r.turn == turn));
    if main && later {
        thread::sleep(script.delay);
    }
    if let Ok(mut log) = log.lock() {
        log.push(Logged {
            path: path.clone(),
            body,
            main,
            call,
            turn,
        });
    }
    let mut out = stream.try_clone()?;
    write!(
        out,
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{payload}",
        payload.len()
    )?;
    out.flush()?;
    Ok(())
}

fn read_exact(reader: &mut impl Read, length: usize) -> Result<Vec<u8>> {
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(body)
}

fn read_chunked(reader: &mut BufReader<TcpStream>) -> Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size)?;
        let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)?;
        let chunk = read_exact(reader, size)?;
        body.extend_from_slice(&chunk);
        let mut crlf = String::new();
        reader.read_line(&mut crlf)?;
        if size == 0 {
            return Ok(body);
        }
    }
}

/// An answer to one request.
struct Reply {
    status: &'static str,
    content_type: &'static str,
    payload: String,
    /// A main (agent-loop) request.
    main: bool,
    /// Answered with the script's tool call.
    call: bool,
}

impl Reply {
    fn ok(content_type: &'static str, payload: String, main: bool, call: bool) -> Reply {
        Reply {
            status: "200 OK",
            content_type,
            payload,
            main,
            call,
        }
    }

    /// A request outside the agent loop, answered with `payload` as JSON.
    fn side(payload: String) -> Reply {
        Reply::ok("application/json", payload, false, false)
    }
}

fn answer(
    wire: Wire,
    method: &str,
    path: &str,
    body: &str,
    script: &Script,
    log: &Mutex<Vec<Logged>>,
    turn: usize,
) -> Reply {
    let earlier_main = log
        .lock()
        .map(|log| log.iter().filter(|r| r.main && r.turn == turn).count())
        .unwrap_or(0);
    // The tool call of this turn, if it has one.
    let command = match turn {
        0 => Some(script.command.as_str()),
        _ => script.later_command.as_deref(),
    };
    let patch = script.patch && turn == 0;
    // Later turns call the tool once.
    let calls = if turn == 0 { script.calls.max(1) } else { 1 };
    let request: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    match wire {
        Wire::Responses => {
            if method != "POST" || !path.ends_with("/responses") {
                return Reply::side(json!({"data": [], "models": []}).to_string());
            }
            // Codex's automatic approval review (`--approve-for-me`) asks the model too: not
            // part of the agent loop; a text answer is not a verdict, so the review declines.
            if body.contains("You are judging one planned coding-agent action") {
                return Reply::ok("text/event-stream", codex_text("done"), false, false);
            }
            let (sse, call) = match command {
                Some(command) if earlier_main == 0 && patch => (codex_patch_call(command), true),
                Some(command) if earlier_main < calls => {
                    // The arguments are JSON text inside a JSON string.
                    let call = codex_tool_call(&request, command, script.escalate, earlier_main);
                    (lone_surrogate(call, 2), true)
                }
                _ => (codex_text("done"), false),
            };
            Reply::ok("text/event-stream", sse, true, call)
        }
        Wire::Messages => {
            if method != "POST" || !path.contains("/messages") {
                return Reply::side("{}".to_owned());
            }
            if path.contains("count_tokens") {
                return Reply::side(json!({"input_tokens": 10}).to_string());
            }
            let shell = shell::messages_shell(&request);
            let streaming = request["stream"] == true;
            match (command, shell) {
                (Some(command), Some((name, schema))) if earlier_main < calls => {
                    let input = shell::call_arguments(schema, command);
                    let (ct, text) =
                        claude_message(streaming, Some((name, &input, earlier_main)), "");
                    // Streamed, the input is JSON text inside a JSON string; else an object.
                    let text = lone_surrogate(text, if streaming { 2 } else { 1 });
                    Reply::ok(ct, text, true, true)
                }
                _ => {
                    let (ct, text) = claude_message(streaming, None, "done");
                    Reply::ok(ct, text, shell.is_some(), false)
                }
            }
        }
        Wire::GenAi => {
            if method != "POST" {
                return Reply::side("{}".to_owned());
            }
            if path.contains(":countTokens") {
                return Reply::side(json!({"totalTokens": 10}).to_string());
            }
            if !path.contains(":generateContent") && !path.contains(":streamGenerateContent") {
                return Reply::side("{}".to_owned());
            }
            let shell = genai::offered_shell(&request);
            let (chunk, call) = match (command, shell) {
                (Some(command), Some((name, schema))) if earlier_main < calls => (
                    genai::call_chunk(name, shell::call_arguments(schema, command)),
                    true,
                ),
                _ if genai::wants_json(&request) => (genai::router_chunk(), false),
                _ => (genai::text_chunk("done"), false),
            };
            let (ct, text) = genai::body(path, &chunk);
            // The arguments are an object inside the JSON of the chunk.
            Reply::ok(ct, lone_surrogate(text, 1), shell.is_some(), call)
        }
    }
}

/// The placeholder a case's command uses for a lone surrogate.
const LONE_SURROGATE: &str = "{LONE_SURROGATE}";

/// `text` with the placeholder replaced by the escape `\ud800` as it must be written `levels`
/// JSON strings deep (serde_json cannot write one: it is not a Rust string).
fn lone_surrogate(text: String, levels: u32) -> String {
    if !text.contains(LONE_SURROGATE) {
        return text;
    }
    let backslashes = "\\".repeat(2usize.pow(levels - 1));
    text.replace(LONE_SURROGATE, &format!("{backslashes}ud800"))
}

fn sse(events: &[Value]) -> String {
    events
        .iter()
        .map(|event| {
            format!(
                "event: {}\ndata: {event}\n\n",
                event["type"].as_str().unwrap_or("message")
            )
        })
        .collect()
}

fn codex_completed() -> Value {
    json!({"type": "response.completed", "response": {"id": "resp-1", "usage": {
        "input_tokens": 10, "input_tokens_details": null, "output_tokens": 5,
        "output_tokens_details": null, "total_tokens": 15}}})
}

/// The `index`th tool call of the turn (ids differ per call).
fn codex_tool_call(request: &Value, command: &str, escalate: bool, index: usize) -> String {
    let tools = request["tools"].to_string();
    let (name, arguments) = if tools.contains("\"exec_command\"") && escalate {
        (
            "exec_command",
            json!({"cmd": command, "sandbox_permissions": "require_escalated",
                "justification": "conformance: needs to write outside the workspace"}),
        )
    } else if tools.contains("\"exec_command\"") {
        ("exec_command", json!({"cmd": command}))
    } else if tools.contains("\"shell_command\"") {
        ("shell_command", json!({"command": command}))
    } else {
        ("shell", json!({"command": ["bash", "-lc", command]}))
    };
    sse(&[
        json!({"type": "response.created", "response": {"id": "resp-1"}}),
        json!({"type": "response.output_item.done", "item": {
            "type": "function_call", "id": format!("fc-{}", index + 1),
            "call_id": format!("call-{}", index + 1), "name": name,
            "arguments": arguments.to_string()}}),
        codex_completed(),
    ])
}

/// Codex's `apply_patch` is a custom (freeform) tool: its input is the patch text itself.
fn codex_patch_call(patch: &str) -> String {
    sse(&[
        json!({"type": "response.created", "response": {"id": "resp-1"}}),
        json!({"type": "response.output_item.done", "item": {
            "type": "custom_tool_call", "id": "ctc-1", "call_id": "call-1",
            "name": "apply_patch", "input": patch}}),
        codex_completed(),
    ])
}

fn codex_text(text: &str) -> String {
    sse(&[
        json!({"type": "response.created", "response": {"id": "resp-2"}}),
        json!({"type": "response.output_item.done", "item": {
            "type": "message", "role": "assistant", "id": "msg-1",
            "content": [{"type": "output_text", "text": text}]}}),
        codex_completed(),
    ])
}

/// A message calling the shell tool `name` with `input` (the `index`th call of the turn), or
/// saying `text`.
fn claude_message(
    streaming: bool,
    call: Option<(&str, &Value, usize)>,
    text: &str,
) -> (&'static str, String) {
    let usage = json!({"input_tokens": 10, "output_tokens": 5});
    let id = call.map(|(_, _, index)| format!("toolu_{:02}", index + 1));
    let (block, stop_reason) = match call {
        Some((name, input, _)) => (
            json!({"type": "tool_use", "id": id, "name": name, "input": input}),
            "tool_use",
        ),
        None => (json!({"type": "text", "text": text}), "end_turn"),
    };
    if !streaming {
        let message = json!({"id": "msg_01", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "content": [block], "stop_reason": stop_reason,
            "stop_sequence": null, "usage": usage});
        return ("application/json", message.to_string());
    }
    let (start, delta) = match call {
        Some((name, input, _)) => (
            json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
            json!({"type": "input_json_delta", "partial_json": input.to_string()}),
        ),
        None => (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": text}),
        ),
    };
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_01", "type": "message",
            "role": "assistant", "model": "claude-sonnet-4-5", "content": [], "stop_reason": null,
            "stop_sequence": null, "usage": usage}}),
        json!({"type": "content_block_start", "index": 0, "content_block": start}),
        json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": null},
            "usage": {"output_tokens": 5}}),
        json!({"type": "message_stop"}),
    ];
    ("text/event-stream", sse(&events))
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::time::Duration;

    use serde_json::{Value, json};

    use super::{Logged, Reply, Script, Wire, answer};

    fn script(command: &str) -> Script {
        Script {
            command: command.to_owned(),
            delay: Duration::ZERO,
            escalate: false,
            patch: false,
            calls: 1,
            later_command: None,
        }
    }

    /// The answers to `requests` (path, body) in turn, each logged as the server logs it.
    fn converse(wire: Wire, requests: &[(&str, Value)]) -> Vec<Reply> {
        let log = Mutex::new(Vec::new());
        let script = script("rm -rf victim");
        requests
            .iter()
            .map(|(path, body)| {
                let reply = answer(wire, "POST", path, &body.to_string(), &script, &log, 0);
                if let Ok(mut log) = log.lock() {
                    log.push(Logged {
                        path: (*path).to_owned(),
                        body: body.to_string(),
                        main: reply.main,
                        call: reply.call,
                        turn: 0,
                    });
                }
                reply
            })
            .collect()
    }

    #[test]
    fn gemini_cli_gets_its_router_answer_one_call_then_text() {
        let turn = json!({"contents": [], "tools": [{"functionDeclarations": [
            {"name": "run_shell_command", "parametersJsonSchema": {"type": "object",
                "required": ["command"], "properties": {"command": {"type": "string"}}}}]}]});
        let router = json!({"contents": [], "generationConfig": {
            "responseMimeType": "application/json"}});
        let stream = "/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse";
        let replies = converse(
            Wire::GenAi,
            &[
                (
                    "/v1beta/models/gemini-3.5-flash-lite:generateContent",
                    router,
                ),
                (stream, turn.clone()),
                ("/v1beta/models/gemini-3.8-flash:countTokens", json!({})),
                (stream, turn),
            ],
        );
        let flags: Vec<(bool, bool)> = replies.iter().map(|r| (r.main, r.call)).collect();
        assert_eq!(
            flags,
            [(false, false), (true, true), (false, false), (true, false)]
        );
        assert!(replies[0].payload.contains("complexity_score"));
        assert_eq!(replies[1].content_type, "text/event-stream");
        assert!(
            replies[1].payload.contains(
                r#""functionCall":{"args":{"command":"rm -rf victim"},"name":"run_shell_command"}"#
            ),
            "{}",
            replies[1].payload
        );
        assert_eq!(replies[2].payload, r#"{"totalTokens":10}"#);
        assert!(replies[3].payload.contains(r#""text":"done""#));
    }

    #[test]
    fn copilot_cli_s_bash_is_called_with_its_description() {
        let turn = json!({"stream": true, "tools": [{"name": "bash", "input_schema": {
            "required": ["command", "description"], "properties": {
                "command": {"type": "string"}, "description": {"type": "string"}}}}]});
        let replies = converse(
            Wire::Messages,
            &[("/v1/messages", turn.clone()), ("/v1/messages", turn)],
        );
        assert_eq!((replies[0].main, replies[0].call), (true, true));
        assert!(
            replies[0].payload.contains(r#""name":"bash""#)
                && replies[0].payload.contains(r#"\"description\":"#),
            "{}",
            replies[0].payload
        );
        assert_eq!((replies[1].main, replies[1].call), (true, false));
        assert!(
            replies[1].payload.contains("text_delta")
                && replies[1].payload.contains(r#""text":"done""#)
        );
    }
}

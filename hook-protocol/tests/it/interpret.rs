//! Table-driven tests of `interpret`: every row of SPEC.md's exit-code rules, per dialect.

use hook_protocol::{Decision, Dialect, Event, HandlerResult, RunStatus, interpret};

/// What a row expects of one run.
#[derive(Debug)]
enum Want {
    /// A response with no decision and nothing else.
    Continue,
    /// A block with this reason.
    Block(&'static str),
    /// A response with this decision (any reason).
    Decides(Decision),
    /// A response whose additional context is this text.
    Context(&'static str),
    /// A response asking the agent to stop with this reason.
    Stop(&'static str),
    /// A non-blocking error whose message contains this text.
    NonBlocking(&'static str),
    /// A failure whose message contains this text.
    Failed(&'static str),
}

use Dialect::{Lime, Verboo, Wuu};
use Want::*;

struct Row {
    dialect: Dialect,
    event: Event,
    exit: Option<i32>,
    stdout: &'static str,
    stderr: &'static str,
    want: Want,
}

fn row(
    dialect: Dialect,
    event: Event,
    exit: Option<i32>,
    stdout: &'static str,
    stderr: &'static str,
    want: Want,
) -> Row {
    Row {
        dialect,
        event,
        exit,
        stdout,
        stderr,
        want,
    }
}

fn rows() -> Vec<Row> {
    use Event::*;
    vec![
        // ---- wuu: exit 2 always blocks; reason from JSON `reason`, else stderr.
        row(Wuu, PreToolUse, Some(2), "", "no push", Block("no push")),
        row(
            Wuu,
            PreToolUse,
            Some(2),
            "{}",
            "from stderr",
            Block("from stderr"),
        ),
        row(
            Wuu,
            PreToolUse,
            Some(2),
            r#"{"decision":"allow"}"#,
            "still blocks",
            Block("still blocks"),
        ),
        row(
            Wuu,
            PreToolUse,
            Some(2),
            r#"{"reason":"json reason"}"#,
            "stderr",
            Block("json reason"),
        ),
        row(
            Wuu,
            PreToolUse,
            Some(2),
            "garbage",
            "stderr reason",
            Block("stderr reason"),
        ),
        row(
            Wuu,
            UserPromptSubmit,
            Some(2),
            "",
            "",
            Block("blocked by hook (exit code 2)"),
        ),
        row(Wuu, Stop, Some(2), "", "turn failed", Block("turn failed")),
        row(
            Wuu,
            PostToolUse,
            Some(2),
            "",
            "late",
            Failed("PostToolUse cannot block"),
        ),
        row(
            Wuu,
            FileChanged,
            Some(2),
            "",
            "x",
            Failed("FileChanged cannot block"),
        ),
        // wuu exit 0: the JSON decision; none means continue.
        row(Wuu, PreToolUse, Some(0), "", "", Continue),
        row(Wuu, PreToolUse, Some(0), "  {}\n", "", Continue),
        row(
            Wuu,
            PreToolUse,
            Some(0),
            r#"{"decision":"block","reason":"r"}"#,
            "",
            Block("r"),
        ),
        row(
            Wuu,
            PreToolUse,
            Some(0),
            r#"{"continue":false,"reason":"c"}"#,
            "",
            Block("c"),
        ),
        row(
            Wuu,
            PermissionRequest,
            Some(0),
            r#"{"decision":"block"}"#,
            "",
            Block("blocked by hook"),
        ),
        row(
            Wuu,
            PostToolUse,
            Some(0),
            r#"{"additional_context":"ctx"}"#,
            "",
            Context("ctx"),
        ),
        // wuu: invalid or mixed stdout is never structured output.
        row(
            Wuu,
            PreToolUse,
            Some(0),
            "not json",
            "",
            Failed("not one JSON object"),
        ),
        row(
            Wuu,
            PreToolUse,
            Some(0),
            "log line\n{\"decision\":\"block\"}",
            "",
            Failed("not one JSON object"),
        ),
        row(
            Wuu,
            PreToolUse,
            Some(0),
            "{\"decision\":\"block\"}\nlog line",
            "",
            Failed("trailing characters"),
        ),
        row(
            Wuu,
            PreToolUse,
            Some(0),
            "{}{}",
            "",
            Failed("not one JSON object"),
        ),
        row(Wuu, PreToolUse, Some(0), "[]", "", Failed("found an array")),
        row(Wuu, PreToolUse, Some(0), "null", "", Failed("found null")),
        row(
            Wuu,
            PreToolUse,
            Some(0),
            r#"{"decision":"deny"}"#,
            "",
            Failed("/decision"),
        ),
        row(
            Wuu,
            PreToolUse,
            Some(0),
            r#"{"continue":"no"}"#,
            "",
            Failed("/continue"),
        ),
        // wuu: any other code is an execution failure.
        row(
            Wuu,
            PreToolUse,
            Some(1),
            r#"{"decision":"block"}"#,
            "boom",
            Failed("exited with code 1: boom"),
        ),
        row(
            Wuu,
            SessionStart,
            Some(127),
            "",
            "sh: nope: not found",
            Failed("code 127"),
        ),
        row(Wuu, PreToolUse, None, "", "", Failed("killed by a signal")),
        // ---- verboo, SPEC table: PreToolUse 0 continue / 2 cancel with stderr / other: error to user.
        row(Verboo, PreToolUse, Some(0), "", "", Continue),
        row(
            Verboo,
            PreToolUse,
            Some(2),
            "",
            "blocked: rm -rf",
            Block("blocked: rm -rf"),
        ),
        row(
            Verboo,
            PreToolUse,
            Some(2),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
            "stderr wins",
            Block("stderr wins"),
        ),
        row(Verboo, PreToolUse, Some(1), "", "oops", NonBlocking("oops")),
        row(
            Verboo,
            PreToolUse,
            Some(3),
            r#"{"decision":"block"}"#,
            "",
            NonBlocking("code 3"),
        ),
        // PostToolUse 0 continue / 2 stderr to the model / other: error to user.
        row(Verboo, PostToolUse, Some(0), "", "", Continue),
        row(
            Verboo,
            PostToolUse,
            Some(2),
            "",
            "lint failed",
            Block("lint failed"),
        ),
        row(
            Verboo,
            PostToolUse,
            Some(1),
            "",
            "crash",
            NonBlocking("crash"),
        ),
        // Exit 2 where the event cannot block: shown to the user only.
        row(
            Verboo,
            SessionStart,
            Some(2),
            "",
            "nope",
            NonBlocking("SessionStart, which cannot block"),
        ),
        row(
            Verboo,
            Notification,
            Some(2),
            "",
            "nope",
            NonBlocking("cannot block"),
        ),
        // WorktreeCreate: any non-zero exit fails creation.
        row(
            Verboo,
            WorktreeCreate,
            Some(1),
            "",
            "no space",
            Block("no space"),
        ),
        // JSON only when stdout starts with `{`; plain text is context on two events only.
        row(
            Verboo,
            UserPromptSubmit,
            Some(0),
            "remember the style guide",
            "",
            Context("remember the style guide"),
        ),
        row(
            Verboo,
            SessionStart,
            Some(0),
            "branch: main\n",
            "",
            Context("branch: main"),
        ),
        row(Verboo, PreToolUse, Some(0), "just a log line", "", Continue),
        row(Verboo, Stop, Some(0), "[1,2]", "", Continue),
        row(
            Verboo,
            PreToolUse,
            Some(0),
            "{not json",
            "",
            Failed("not one JSON object"),
        ),
        row(
            Verboo,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
            "",
            Block("no"),
        ),
        row(
            Verboo,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}"#,
            "",
            Decides(Decision::Ask),
        ),
        row(
            Verboo,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}"#,
            "",
            Decides(Decision::Defer),
        ),
        row(
            Verboo,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
            "",
            Decides(Decision::Allow),
        ),
        // Deprecated top-level approve/block on PreToolUse.
        row(
            Verboo,
            PreToolUse,
            Some(0),
            r#"{"decision":"approve"}"#,
            "",
            Decides(Decision::Allow),
        ),
        row(
            Verboo,
            PreToolUse,
            Some(0),
            r#"{"decision":"block","reason":"old style"}"#,
            "",
            Block("old style"),
        ),
        row(
            Verboo,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse"}}"#,
            "",
            Failed("/hookSpecificOutput/hookEventName"),
        ),
        row(
            Verboo,
            PermissionRequest,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not here"}}}"#,
            "",
            Block("not here"),
        ),
        row(
            Verboo,
            Stop,
            Some(0),
            r#"{"decision":"block","reason":"tests not run"}"#,
            "",
            Block("tests not run"),
        ),
        row(
            Verboo,
            Stop,
            Some(0),
            r#"{"continue":false,"stopReason":"done"}"#,
            "",
            Want::Stop("done"),
        ),
        row(
            Verboo,
            Notification,
            Some(0),
            r#"{"decision":"block"}"#,
            "",
            Continue,
        ),
        // ---- lime: exit 2 blocks with stderr; empty stderr is a failure; other non-zero: error.
        row(
            Lime,
            PreToolUse,
            Some(2),
            "",
            "denied by policy",
            Block("denied by policy"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(2),
            "",
            "",
            Failed("wrote no reason on stderr"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(2),
            "",
            "  \n",
            Failed("wrote no reason on stderr"),
        ),
        row(Lime, Stop, Some(2), "", "keep going", Block("keep going")),
        row(
            Lime,
            PostToolUse,
            Some(2),
            "",
            "look again",
            Block("look again"),
        ),
        row(
            Lime,
            SessionStart,
            Some(2),
            "",
            "x",
            Failed("SessionStart cannot block"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(1),
            "",
            "crashed",
            Failed("exited with code 1: crashed"),
        ),
        row(Lime, PreToolUse, Some(0), "", "", Continue),
        // lime output is strict: unknown fields, null, snake_case, wrong hookEventName fail.
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"continue":true}"#,
            "",
            Continue,
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"bogus":1}"#,
            "",
            Failed("unknown field `bogus`"),
        ),
        row(
            Lime,
            Stop,
            Some(0),
            r#"{"stopReason":null}"#,
            "",
            Failed("/stopReason"),
        ),
        row(
            Lime,
            Stop,
            Some(0),
            r#"{"stop_reason":"x"}"#,
            "",
            Failed("did you mean `stopReason`?"),
        ),
        row(
            Lime,
            SessionStart,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"Stop"}}"#,
            "",
            Failed("/hookSpecificOutput/hookEventName"),
        ),
        row(
            Lime,
            SessionStart,
            Some(0),
            r#"{"decision":"block"}"#,
            "",
            Failed("unknown field `decision`"),
        ),
        // Plain text: ignored where Codex ignores it, context where it is context, a failure
        // elsewhere; text that looks like JSON must be JSON.
        row(Lime, PreToolUse, Some(0), "not json", "", Continue),
        row(Lime, PostToolUse, Some(0), "CONTEXT plain", "", Continue),
        row(Lime, PermissionRequest, Some(0), "plain", "", Continue),
        row(Lime, PreCompact, Some(0), "plain", "", Continue),
        row(Lime, PostCompact, Some(0), "plain", "", Continue),
        row(
            Lime,
            SubagentStart,
            Some(0),
            "sub hint",
            "",
            Context("sub hint"),
        ),
        row(
            Lime,
            Stop,
            Some(0),
            "plain",
            "",
            Failed("plain text, which Stop does not take"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            "{not json",
            "",
            Failed("not one JSON object"),
        ),
        // Plain text is context on SessionStart and UserPromptSubmit.
        row(
            Lime,
            SessionStart,
            Some(0),
            "on branch main",
            "",
            Context("on branch main"),
        ),
        row(Lime, UserPromptSubmit, Some(0), "hint", "", Context("hint")),
        // As Codex 0.169 parses them (issue 11): outputs the schema accepts but Codex refuses
        // are failed runs with no effect.
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}"#,
            "",
            Failed("unsupported `permissionDecision: \"ask\"`"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}"#,
            "",
            Failed("without `updatedInput`"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}"#,
            "",
            Decides(Decision::Allow),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -a"}}}"#,
            "",
            Failed("`updatedInput` without `permissionDecision: \"allow\"`"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
            "",
            Failed("without a non-empty `permissionDecisionReason`"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"  "}}"#,
            "",
            Failed("without a non-empty `permissionDecisionReason`"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"decision":"approve","reason":"ok"}"#,
            "",
            Failed("unsupported `decision: \"approve\"`"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"reason":"why"}"#,
            "",
            Failed("`reason` without `decision`"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"continue":false,"stopReason":"halt"}"#,
            "",
            Failed("unsupported `continue: false`"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"suppressOutput":true}"#,
            "",
            Failed("unsupported `suppressOutput`"),
        ),
        row(
            Lime,
            PermissionRequest,
            Some(0),
            r#"{"continue":false}"#,
            "",
            Failed("unsupported `continue: false`"),
        ),
        row(
            Lime,
            PermissionRequest,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}"#,
            "",
            Block("PermissionRequest hook denied approval"),
        ),
        row(
            Lime,
            PostToolUse,
            Some(0),
            r#"{"reason":"why"}"#,
            "",
            Failed("`reason` without `decision`"),
        ),
        row(
            Lime,
            PostToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"a":1}}}"#,
            "",
            Failed("unsupported `updatedMCPToolOutput`"),
        ),
        // PostToolUse `continue: false`: the text goes to the model and the turn goes on.
        row(
            Lime,
            PostToolUse,
            Some(0),
            r#"{"continue":false,"stopReason":"stop here"}"#,
            "",
            Block("stop here"),
        ),
        row(
            Lime,
            PostToolUse,
            Some(0),
            r#"{"continue":false}"#,
            "",
            Block("PostToolUse hook stopped execution"),
        ),
        // SubagentStart ignores `continue: false`; SessionStart stops.
        row(
            Lime,
            SubagentStart,
            Some(0),
            r#"{"continue":false}"#,
            "",
            Continue,
        ),
        row(
            Lime,
            SessionStart,
            Some(0),
            r#"{"continue":false,"stopReason":"no"}"#,
            "",
            Want::Stop("no"),
        ),
        // Decisions.
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
            "",
            Block("no"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"decision":"block","reason":"legacy"}"#,
            "",
            Block("legacy"),
        ),
        row(
            Lime,
            PreToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}"#,
            "",
            Failed("/hookSpecificOutput/permissionDecision"),
        ),
        row(
            Lime,
            Stop,
            Some(0),
            r#"{"decision":"block"}"#,
            "",
            Failed("needs a non-empty `reason`"),
        ),
        row(
            Lime,
            Stop,
            Some(0),
            r#"{"decision":"block","reason":"run the tests"}"#,
            "",
            Block("run the tests"),
        ),
        row(
            Lime,
            Stop,
            Some(0),
            r#"{"continue":false,"stopReason":"enough"}"#,
            "",
            Want::Stop("enough"),
        ),
        row(
            Lime,
            PermissionRequest,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#,
            "",
            Decides(Decision::Allow),
        ),
        row(
            Lime,
            PermissionRequest,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}"#,
            "",
            Block("no"),
        ),
        row(
            Lime,
            PermissionRequest,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}"#,
            "",
            Failed("may not return `updatedInput`"),
        ),
        row(
            Lime,
            PermissionRequest,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","interrupt":true}}}"#,
            "",
            Failed("`interrupt: true`"),
        ),
        row(
            Lime,
            PermissionRequest,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":null}}}"#,
            "",
            Decides(Decision::Allow),
        ),
        row(
            Lime,
            PostToolUse,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"note"}}"#,
            "",
            Context("note"),
        ),
        row(
            Lime,
            Interrupt,
            Some(0),
            r#"{"systemMessage":"cleaned up"}"#,
            "",
            Continue,
        ),
    ]
}

fn check(row: &Row) -> Result<(), String> {
    let result = interpret(
        row.dialect,
        &row.event,
        row.exit,
        row.stdout.as_bytes(),
        row.stderr.as_bytes(),
    );
    let ok = match (&row.want, &result) {
        (Continue, HandlerResult::Response(r)) => {
            r.decision.is_none() && r.additional_context.is_none() && r.stop.is_none()
        }
        (Block(reason), HandlerResult::Response(r)) => {
            r.decision == Some(Decision::Block) && r.reason.as_deref() == Some(*reason)
        }
        (Decides(decision), HandlerResult::Response(r)) => r.decision == Some(*decision),
        (Context(text), HandlerResult::Response(r)) => {
            r.decision.is_none() && r.additional_context.as_deref() == Some(*text)
        }
        (Stop(reason), HandlerResult::Response(r)) => {
            r.stop.as_ref().and_then(|s| s.reason.as_deref()) == Some(*reason)
        }
        (NonBlocking(text), HandlerResult::NonBlockingError { message }) => message.contains(text),
        (Failed(text), HandlerResult::Failed(failure)) => failure.to_string().contains(text),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} {} exit {:?} stdout {:?} stderr {:?}: wanted {:?}, got {:?}",
            row.dialect, row.event, row.exit, row.stdout, row.stderr, row.want, result
        ))
    }
}

#[test]
fn exit_code_and_stdout_rules_of_every_dialect() {
    let failures: Vec<String> = rows().iter().filter_map(|row| check(row).err()).collect();
    assert!(
        failures.is_empty(),
        "{} rows failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn statuses_follow_the_result() {
    let blocked = interpret(Wuu, &Event::PreToolUse, Some(2), b"", b"x");
    assert_eq!(blocked.status(), RunStatus::Blocked);
    let ok = interpret(Wuu, &Event::PreToolUse, Some(0), b"", b"");
    assert_eq!(ok.status(), RunStatus::Ok);
    let failed = interpret(Verboo, &Event::PreToolUse, Some(1), b"", b"x");
    assert_eq!(failed.status(), RunStatus::Failed);
}

#[test]
fn wuu_rewrite_and_fields_without_effect_are_warned_about() {
    let stdout = br#"{"updated_input":{"command":"ls"},"additional_context":"x","extra":1}"#;
    let HandlerResult::Response(response) =
        interpret(Wuu, &Event::PreToolUse, Some(0), stdout, b"")
    else {
        panic!("expected a response")
    };
    assert_eq!(
        response.updated_input,
        Some(serde_json::json!({"command": "ls"}))
    );
    assert_eq!(response.additional_context, None);
    assert_eq!(
        response.warnings,
        vec![
            "unknown field `extra` ignored".to_owned(),
            "`additional_context` has no effect on PreToolUse".to_owned(),
        ]
    );

    let stdout = br#"{"updated_input":{"command":"ls"}}"#;
    let HandlerResult::Response(response) =
        interpret(Wuu, &Event::PostToolUse, Some(0), stdout, b"")
    else {
        panic!("expected a response")
    };
    assert_eq!(response.updated_input, None);
    assert_eq!(
        response.warnings,
        vec!["`updated_input` has no effect on PostToolUse".to_owned()]
    );
}

#[test]
fn verboo_pre_tool_use_rewrite_and_the_most_restrictive_decision_of_one_output() {
    let stdout = br#"{"systemMessage":"m","suppressOutput":true,"hookSpecificOutput":{
        "hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"},
        "additionalContext":"why"}}"#;
    let HandlerResult::Response(response) =
        interpret(Verboo, &Event::PreToolUse, Some(0), stdout, b"")
    else {
        panic!("expected a response")
    };
    assert_eq!(response.decision, Some(Decision::Allow));
    assert_eq!(
        response.updated_input,
        Some(serde_json::json!({"command": "ls -a"}))
    );
    assert_eq!(response.additional_context.as_deref(), Some("why"));
    assert_eq!(response.system_message.as_deref(), Some("m"));
    assert!(response.suppress_output);

    // A top-level block and a permission allow in the same output: the block wins.
    let stdout = br#"{"decision":"block","reason":"r","hookSpecificOutput":{
        "hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{}}}"#;
    let result = interpret(Verboo, &Event::PreToolUse, Some(0), stdout, b"");
    let response = result.response().expect("a response");
    assert_eq!(response.decision, Some(Decision::Block));
    assert_eq!(
        response.updated_input, None,
        "a blocked call is not rewritten"
    );
}

#[test]
fn non_utf8_output_is_never_a_decision() {
    let stdout = b"{\"decision\":\"bl\xffock\"}";
    for dialect in Dialect::ALL {
        let result = interpret(dialect, &Event::PreToolUse, Some(0), stdout, b"");
        assert!(
            matches!(result, HandlerResult::Failed(_)),
            "{dialect}: {result:?}"
        );
    }
    // Non-UTF-8 stderr still gives a readable reason.
    let result = interpret(Lime, &Event::PreToolUse, Some(2), b"", b"bad \xff byte");
    assert_eq!(
        result.response().unwrap().reason.as_deref(),
        Some("bad \u{fffd} byte")
    );
}

/// An event the dialect does not know (a newer agent's) keeps a block in any known shape
/// (`BlockEffect::Unknown`): what a block does there cannot be known, so it is never dropped.
#[test]
fn unknown_events_keep_a_block_in_any_known_shape() {
    let event = Event::from_name("PreTeleport");
    for dialect in Dialect::ALL {
        let result = interpret(dialect, &event, Some(2), b"", b"x");
        assert_eq!(result.status(), RunStatus::Blocked, "{dialect}");
        let result = interpret(dialect, &event, Some(1), b"", b"x");
        assert_eq!(result.status(), RunStatus::Failed, "{dialect}");
        let result = interpret(dialect, &event, Some(0), b"{}", b"");
        assert_eq!(result.status(), RunStatus::Ok, "{dialect}");
    }
    let shapes: [&[u8]; 3] = [
        br#"{"decision":"block","reason":"no"}"#,
        br#"{"hookSpecificOutput":{"hookEventName":"PreTeleport","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
        br#"{"hookSpecificOutput":{"hookEventName":"PreTeleport","decision":{"behavior":"deny","message":"no"}}}"#,
    ];
    for dialect in Dialect::ALL {
        for stdout in shapes {
            let result = interpret(dialect, &event, Some(0), stdout, b"");
            let HandlerResult::Response(response) = &result else {
                panic!("{dialect}: {result:?}")
            };
            assert_eq!(response.decision, Some(Decision::Block), "{dialect}");
            assert_eq!(response.reason.as_deref(), Some("no"), "{dialect}");
        }
    }
    // Known to another dialect only is unknown here too.
    let interrupt = interpret(Verboo, &Event::Interrupt, Some(2), b"", b"x");
    assert_eq!(interrupt.status(), RunStatus::Blocked);
}

/// The engine warns on a misspelt field wherever it is, naming the field probably meant (the
/// same walk as `hook validate`), and ignores it as the agent does.
#[test]
fn verboo_misspelt_fields_are_ignored_with_a_did_you_mean() {
    let stdout = br#"{"decison":"block","hookSpecificOutput":{"hookEventName":"PreToolUse","permisionDecision":"deny"}}"#;
    let HandlerResult::Response(response) =
        interpret(Verboo, &Event::PreToolUse, Some(0), stdout, b"")
    else {
        panic!("expected a response")
    };
    assert_eq!(response.decision, None);
    assert_eq!(
        response.warnings,
        vec![
            "unknown field `decison` ignored (did you mean `decision`?)".to_owned(),
            "unknown field `permisionDecision` ignored in /hookSpecificOutput (did you mean `permissionDecision`?)"
                .to_owned(),
        ]
    );
}

/// The response of a run that must have been read.
fn response_of(dialect: Dialect, event: &Event, stdout: &str) -> hook_protocol::Response {
    match interpret(dialect, event, Some(0), stdout.as_bytes(), b"") {
        HandlerResult::Response(response) => response,
        other => panic!("{dialect} {event} {stdout}: expected a response, got {other:?}"),
    }
}

/// lime reads `continue: false` before every other check where Codex does: on `PostToolUse` a
/// `reason` without `decision` beside it is its feedback, not a refusal; the run is `stopped`.
/// The schema gives the same verdict.
#[test]
fn lime_post_tool_use_continue_false_is_read_before_reason_without_decision() {
    let stdout = r#"{"continue":false,"stopReason":"halt after bash","reason":"the tool output looked wrong"}"#;
    let result = interpret(Lime, &Event::PostToolUse, Some(0), stdout.as_bytes(), b"");
    assert_eq!(result.status(), RunStatus::Stopped);
    let response = response_of(Lime, &Event::PostToolUse, stdout);
    assert_eq!(response.decision, Some(Decision::Block));
    assert_eq!(
        response.reason.as_deref(),
        Some("the tool output looked wrong")
    );
    assert_eq!(response.stop, None, "the turn goes on");
    hook_protocol::validate_output(Lime, &Event::PostToolUse, stdout.as_bytes())
        .expect("the schema agrees");
    // Without `continue: false` the same `reason` is refused.
    let alone = interpret(
        Lime,
        &Event::PostToolUse,
        Some(0),
        br#"{"reason":"the tool output looked wrong"}"#,
        b"",
    );
    assert_eq!(alone.status(), RunStatus::Failed, "{alone:?}");
    // Beside an output Codex would refuse, the stop still stands; the context goes.
    for refused in [
        r#"{"continue":false,"suppressOutput":true,"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}"#,
        r#"{"continue":false,"decision":"block","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}"#,
    ] {
        let response = response_of(Lime, &Event::PostToolUse, refused);
        assert!(response.stopped, "{refused}");
        assert_eq!(
            response.reason.as_deref(),
            Some("PostToolUse hook stopped execution")
        );
        assert_eq!(response.additional_context, None, "{refused}");
        assert_eq!(response.warnings.len(), 1, "{refused}");
        hook_protocol::validate_output(Lime, &Event::PostToolUse, refused.as_bytes())
            .expect("the schema agrees");
    }
    // A valid output keeps its context beside the stop.
    let kept = response_of(
        Lime,
        &Event::PostToolUse,
        r#"{"continue":false,"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}"#,
    );
    assert_eq!(kept.additional_context.as_deref(), Some("ctx"));
}

/// On lime `UserPromptSubmit`, `Stop` and `SubagentStop` a block without a reason beside
/// `continue: false` is no refusal: Codex takes the stop (the run `stopped`) and drops the
/// block and the run's context.
#[test]
fn lime_continue_false_comes_before_block_without_reason() {
    for (event, name) in [
        (Event::UserPromptSubmit, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SubagentStop, "SubagentStop"),
    ] {
        let stdout = r#"{"continue":false,"stopReason":"pause","decision":"block"}"#;
        let result = interpret(Lime, &event, Some(0), stdout.as_bytes(), b"");
        assert_eq!(result.status(), RunStatus::Stopped, "{name}: {result:?}");
        let response = response_of(Lime, &event, stdout);
        assert_eq!(response.decision, None, "{name}");
        assert_eq!(
            response.stop.and_then(|s| s.reason).as_deref(),
            Some("pause")
        );
        hook_protocol::validate_output(Lime, &event, stdout.as_bytes())
            .unwrap_or_else(|e| panic!("{name}: the schema agrees: {e}"));
        // Without the stop, the same block is refused.
        let alone = interpret(Lime, &event, Some(0), br#"{"decision":"block"}"#, b"");
        assert_eq!(alone.status(), RunStatus::Failed, "{name}");
    }
    // The stop keeps a prompt's context for the next turn, as Codex does.
    let response = response_of(
        Lime,
        &Event::UserPromptSubmit,
        r#"{"continue":false,"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}"#,
    );
    assert!(response.stopped);
    assert_eq!(response.additional_context.as_deref(), Some("ctx"));
}

/// `stopped` is the status of a run whose `continue: false` the dialect obeyed: verboo and
/// lime (where the event takes it); wuu reads `continue: false` as a block (`blocked`).
#[test]
fn continue_false_runs_are_stopped_where_it_stops() {
    let stop = br#"{"continue":false,"stopReason":"enough"}"#;
    let status = |dialect, event: &Event| interpret(dialect, event, Some(0), stop, b"").status();
    assert_eq!(status(Verboo, &Event::PreToolUse), RunStatus::Stopped);
    assert_eq!(status(Verboo, &Event::Stop), RunStatus::Stopped);
    assert_eq!(status(Lime, &Event::Stop), RunStatus::Stopped);
    assert_eq!(status(Lime, &Event::SessionStart), RunStatus::Stopped);
    assert_eq!(status(Lime, &Event::PostToolUse), RunStatus::Stopped);
    // Refused (Codex fails the run) and ignored (with a warning).
    assert_eq!(status(Lime, &Event::PreToolUse), RunStatus::Failed);
    assert_eq!(status(Lime, &Event::PermissionRequest), RunStatus::Failed);
    assert_eq!(status(Lime, &Event::SubagentStart), RunStatus::Ok);
    let wuu = interpret(
        Wuu,
        &Event::PreToolUse,
        Some(0),
        br#"{"continue":false,"reason":"no"}"#,
        b"",
    );
    assert_eq!(wuu.status(), RunStatus::Blocked);
    // A `stopped` run's status beats its block: the stop is what Codex reports.
    let both = interpret(
        Verboo,
        &Event::Stop,
        Some(0),
        br#"{"continue":false,"decision":"block","reason":"keep going"}"#,
        b"",
    );
    assert_eq!(both.status(), RunStatus::Stopped);
}

/// lime `PreToolUse`, as Codex reads it: when `hookSpecificOutput` decides (a
/// `permissionDecision`, a `permissionDecisionReason` or an `updatedInput`), the legacy
/// top-level `decision` and `reason` are neither checked nor obeyed; a
/// `permissionDecisionReason` alone is refused. The schema gives the same verdict.
#[test]
fn lime_pre_tool_use_reads_the_specific_decision_before_the_legacy_one() {
    let event = Event::PreToolUse;
    let deny = r#"{"reason":"legacy","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no pushes"}}"#;
    let response = response_of(Lime, &event, deny);
    assert_eq!(response.decision, Some(Decision::Block));
    assert_eq!(response.reason.as_deref(), Some("no pushes"));
    let approve_beside_deny = r#"{"decision":"approve","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no pushes"}}"#;
    assert_eq!(
        response_of(Lime, &event, approve_beside_deny).decision,
        Some(Decision::Block)
    );
    let block_beside_rewrite = r#"{"decision":"block","reason":"legacy","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}"#;
    let response = response_of(Lime, &event, block_beside_rewrite);
    assert_eq!(response.decision, Some(Decision::Allow));
    assert_eq!(
        response.updated_input,
        Some(serde_json::json!({"command": "ls"}))
    );
    assert!(!response.warnings.is_empty(), "the ignored fields are said");
    for valid in [deny, approve_beside_deny, block_beside_rewrite] {
        hook_protocol::validate_output(Lime, &event, valid.as_bytes())
            .unwrap_or_else(|e| panic!("{valid}: {e}"));
    }
    let reason_alone =
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecisionReason":"why"}}"#;
    let result = interpret(Lime, &event, Some(0), reason_alone.as_bytes(), b"");
    assert_eq!(result.status(), RunStatus::Failed, "{result:?}");
    assert!(hook_protocol::validate_output(Lime, &event, reason_alone.as_bytes()).is_err());
    // Without a specific decision, the legacy checks hold.
    for refused in [
        r#"{"reason":"why"}"#,
        r#"{"decision":"approve"}"#,
        r#"{"decision":"block"}"#,
    ] {
        let result = interpret(Lime, &event, Some(0), refused.as_bytes(), b"");
        assert_eq!(result.status(), RunStatus::Failed, "{refused}");
        assert!(hook_protocol::validate_output(Lime, &event, refused.as_bytes()).is_err());
    }
}

/// Claude Code 2.1.332's new events as it reads them: a skill's inline command is kept from
/// running by `deny`, `ask`, `defer` and any `updatedInput` (its own reasons); a model switch
/// is denied, asked or allowed, and has no `defer`; `PostModelSwitch` context reaches the model;
/// `DirectoryAdded` refuses a whole output that carries a `hookSpecificOutput`.
#[test]
fn claude_code_2_1_332_events() {
    use Event::*;
    let rows = vec![
        row(
            Verboo,
            PreSkillShellCommand,
            Some(2),
            "",
            "no curl",
            Block("no curl"),
        ),
        row(
            Verboo,
            PreSkillShellCommand,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"no curl"}}"#,
            "",
            Block("no curl"),
        ),
        row(
            Verboo,
            PreSkillShellCommand,
            Some(0),
            r#"{"reason":"top","hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny"}}"#,
            "",
            Block("top"),
        ),
        row(
            Verboo,
            PreSkillShellCommand,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"ask","permissionDecisionReason":"check"}}"#,
            "",
            Block("check; the hook asked for approval, which a skill can't wait for"),
        ),
        row(
            Verboo,
            PreSkillShellCommand,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"defer"}}"#,
            "",
            Block("the hook asked for approval, which a skill can't wait for"),
        ),
        row(
            Verboo,
            PreSkillShellCommand,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"allow","updatedInput":{"command":"true"}}}"#,
            "",
            Block("the hook changed the command, which isn't supported here"),
        ),
        row(
            Verboo,
            PreSkillShellCommand,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"allow"}}"#,
            "",
            Decides(Decision::Allow),
        ),
        row(
            Verboo,
            PreModelSwitch,
            Some(2),
            "",
            "keep opus",
            Block("keep opus"),
        ),
        row(
            Verboo,
            PreModelSwitch,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny","permissionDecisionReason":"keep opus"}}"#,
            "",
            Block("keep opus"),
        ),
        row(
            Verboo,
            PreModelSwitch,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"ask"}}"#,
            "",
            Decides(Decision::Ask),
        ),
        row(
            Verboo,
            PreModelSwitch,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"defer"}}"#,
            "",
            Failed("/hookSpecificOutput/permissionDecision"),
        ),
        row(
            Verboo,
            PostModelSwitch,
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PostModelSwitch","additionalContext":"now on sonnet"}}"#,
            "",
            Context("now on sonnet"),
        ),
        row(
            Verboo,
            PostModelSwitch,
            Some(2),
            "",
            "x",
            NonBlocking("cannot block"),
        ),
        row(
            Verboo,
            DirectoryAdded,
            Some(0),
            r#"{"systemMessage":"added","hookSpecificOutput":{"hookEventName":"DirectoryAdded","additionalContext":"x"}}"#,
            "",
            Failed("no hookSpecificOutput"),
        ),
        row(
            Verboo,
            DirectoryAdded,
            Some(0),
            r#"{"systemMessage":"added"}"#,
            "",
            Continue,
        ),
    ];
    let failures: Vec<String> = rows.iter().filter_map(|row| check(row).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A model-switch matcher tests the resolved `to_model` without its `[1m]`-style suffix.
#[test]
fn model_switch_matchers_test_the_model_without_its_context_suffix() {
    use hook_protocol::MatchTarget;
    let target = Event::PreModelSwitch.match_target(Verboo);
    assert_eq!(target, MatchTarget::ToModel);
    assert_eq!(Event::PostModelSwitch.match_target(Verboo), target);
    for (to_model, value) in [
        ("claude-opus-4-6[1m]", "claude-opus-4-6"),
        ("claude-sonnet-4-6[2m]", "claude-sonnet-4-6"),
        ("claude-sonnet-4-6", "claude-sonnet-4-6"),
        ("Claude-Sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("claude-sonnet-4-5-20250929[1m]", "claude-sonnet-4-5"),
        ("odd[model]", "odd[model]"),
    ] {
        let input = serde_json::json!({ "to_model": to_model });
        assert_eq!(
            target.value_in(&input).as_deref(),
            Some(value),
            "{to_model}"
        );
    }
    assert_eq!(
        Event::PreSkillShellCommand.match_target(Verboo),
        MatchTarget::ToolName
    );
}

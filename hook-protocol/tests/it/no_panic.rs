//! Nothing panics on any byte string: the interpretation and the input reader are total.

use hook_protocol::input::parse_input;
use hook_protocol::{Dialect, Event, interpret, validate_output};
use proptest::prelude::*;

fn events() -> Vec<Event> {
    let mut events = Event::KNOWN.to_vec();
    events.push(Event::from_name("SomethingNew"));
    events
}

/// Bytes that are often almost-JSON: a JSON-looking prefix with random tails.
fn stdout_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..64),
        (
            prop_oneof![
                Just(r#"{"decision":"block","reason":"#.to_owned()),
                Just(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"#.to_owned()),
                Just(r#"{"continue":false,"stopReason":"#.to_owned()),
                Just(r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"#.to_owned()),
                Just("{".to_owned()),
            ],
            "[\"a-z{}:,0-9 \\[\\]]{0,40}",
        )
            .prop_map(|(head, tail)| format!("{head}{tail}").into_bytes()),
    ]
}

proptest! {
    #[test]
    fn interpret_is_total(
        stdout in stdout_bytes(),
        stderr in proptest::collection::vec(any::<u8>(), 0..32),
        exit in proptest::option::of(-3i32..260),
    ) {
        for dialect in Dialect::ALL {
            for event in events() {
                let result = interpret(dialect, &event, exit, &stdout, &stderr);
                // A block always carries a reason.
                if let Some(response) = result.response()
                    && response.decision == Some(hook_protocol::Decision::Block)
                {
                    prop_assert!(response.reason.as_deref().is_some_and(|r| !r.is_empty()));
                }
            }
        }
    }

    #[test]
    fn parse_input_and_validate_output_are_total(bytes in stdout_bytes()) {
        for dialect in Dialect::ALL {
            let _ = parse_input(dialect, &bytes);
            let _ = validate_output(dialect, &Event::PreToolUse, &bytes);
        }
    }
}

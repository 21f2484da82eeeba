//! The Google GenAI side of the fake model (Gemini CLI 0.61): the shell tool a request offers
//! in its `functionDeclarations`, and the answers' shapes. Gemini CLI first asks its router
//! (`POST …/models/<m>:generateContent`, `generationConfig.responseMimeType`
//! `application/json`) how complex the prompt is, and prints a schema error unless the answer
//! is JSON text `{"complexity_reasoning": …, "complexity_score": …}`; its turns are `POST
//! …/models/<m>:streamGenerateContent?alt=sse`, each answered with one SSE `data:` event
//! holding a whole `GenerateContentResponse`.

use serde_json::{Value, json};

use super::shell::preferred;

/// The shell tool a GenAI request offers (`tools[].functionDeclarations[]`, or
/// `function_declarations`), with its parameters' schema (`parametersJsonSchema`, else
/// `parameters`).
pub(super) fn offered_shell(request: &Value) -> Option<(&str, &Value)> {
    let declarations = request["tools"]
        .as_array()?
        .iter()
        .flat_map(|tool| {
            [
                &tool["functionDeclarations"],
                &tool["function_declarations"],
            ]
            .into_iter()
            .filter_map(Value::as_array)
            .flatten()
        })
        .filter_map(|declaration| {
            let schema = match &declaration["parametersJsonSchema"] {
                Value::Null => &declaration["parameters"],
                schema => schema,
            };
            Some((declaration["name"].as_str()?, schema))
        });
    preferred(declarations)
}

/// Whether the request asks for JSON text (the router's classification).
pub(super) fn wants_json(request: &Value) -> bool {
    request["generationConfig"]["responseMimeType"] == "application/json"
}

/// A response whose one candidate says `part`.
fn chunk(part: Value) -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP",
            "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
            "totalTokenCount": 15},
        "modelVersion": "gemini-2.5-pro"
    })
}

/// A response calling `name` with `args`.
pub(super) fn call_chunk(name: &str, args: Value) -> Value {
    chunk(json!({"functionCall": {"name": name, "args": args}}))
}

/// A response saying `text`.
pub(super) fn text_chunk(text: &str) -> Value {
    chunk(json!({"text": text}))
}

/// The router's answer: the prompt is simple.
pub(super) fn router_chunk() -> Value {
    text_chunk(&json!({"complexity_reasoning": "x", "complexity_score": 1}).to_string())
}

/// The content type and body answering `path` with `chunk`: one SSE event for
/// `:streamGenerateContent?alt=sse`, a JSON array of it without `alt=sse`, the object itself
/// for `:generateContent`.
pub(super) fn body(path: &str, chunk: &Value) -> (&'static str, String) {
    if !path.contains(":streamGenerateContent") {
        ("application/json", chunk.to_string())
    } else if path.contains("alt=sse") {
        ("text/event-stream", format!("data: {chunk}\r\n\r\n"))
    } else {
        ("application/json", json!([chunk]).to_string())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{body, call_chunk, offered_shell, router_chunk, text_chunk, wants_json};

    /// The one part of the one candidate of a response.
    fn part(response: &Value) -> &Value {
        &response["candidates"][0]["content"]["parts"][0]
    }

    #[test]
    fn a_turn_is_one_sse_event_holding_a_whole_response() {
        let call = call_chunk("run_shell_command", json!({"command": "rm -rf victim"}));
        let (content_type, text) = body(
            "/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse",
            &call,
        );
        assert_eq!(content_type, "text/event-stream");
        let data = text
            .strip_prefix("data: ")
            .and_then(|rest| rest.strip_suffix("\r\n\r\n"))
            .expect("one data event");
        assert!(!data.contains('\n'), "one line: {data}");
        let response: Value = serde_json::from_str(data).expect("JSON");
        assert_eq!(
            part(&response),
            &json!({"functionCall": {"name": "run_shell_command",
                "args": {"command": "rm -rf victim"}}})
        );
        assert_eq!(response["candidates"][0]["content"]["role"], "model");
        assert_eq!(response["candidates"][0]["finishReason"], "STOP");
        assert_eq!(response["usageMetadata"]["totalTokenCount"], 15);
        // Without `alt=sse`, the stream is a JSON array of responses.
        let (content_type, text) = body("/v1beta/models/m:streamGenerateContent", &call);
        assert_eq!(content_type, "application/json");
        let array: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(array, json!([call]));
    }

    #[test]
    fn the_router_gets_the_json_text_it_asks_for() {
        let request = json!({"contents": [], "generationConfig": {
            "responseMimeType": "application/json", "responseJsonSchema": {"type": "OBJECT"}}});
        assert!(wants_json(&request));
        assert!(!wants_json(
            &json!({"generationConfig": {"temperature": 1}})
        ));
        let (content_type, text) = body(
            "/v1beta/models/gemini-3.5-flash-lite:generateContent",
            &router_chunk(),
        );
        assert_eq!(content_type, "application/json");
        let response: Value = serde_json::from_str(&text).expect("JSON");
        let inner: Value =
            serde_json::from_str(part(&response)["text"].as_str().expect("text")).expect("JSON");
        assert_eq!(
            inner,
            json!({"complexity_reasoning": "x", "complexity_score": 1})
        );
        assert_eq!(part(&text_chunk("done")), &json!({"text": "done"}));
    }

    #[test]
    fn the_shell_tool_is_found_among_the_function_declarations() {
        let request = json!({"tools": [
            {"functionDeclarations": [{"name": "read_file", "parametersJsonSchema": {}}]},
            {"functionDeclarations": [{"name": "run_shell_command",
                "parametersJsonSchema": {"required": ["command"]}}]}]});
        let (name, schema) = offered_shell(&request).expect("offered");
        assert_eq!(name, "run_shell_command");
        assert_eq!(schema["required"], json!(["command"]));
        let snake = json!({"tools": [{"function_declarations": [{"name": "run_shell_command",
            "parameters": {"type": "OBJECT"}}]}]});
        assert_eq!(
            offered_shell(&snake).map(|(_, schema)| schema["type"].clone()),
            Some(json!("OBJECT"))
        );
        assert_eq!(offered_shell(&json!({"contents": []})), None);
        assert_eq!(
            offered_shell(&json!({"tools": [{"googleSearch": {}}]})),
            None
        );
    }
}

//! An optional routing layer over the one-function API: handlers per event and tool, with
//! guards. [`Router`] carries the documentation: the crate root exports it, and this module
//! is private.

use std::fmt;
use std::ops::Deref;

use hook_protocol::Dialect;

use crate::event::{Prompt, SessionStart, Stop, ToolCall, ToolResult};
use crate::response::{Handler, HookError, IntoResponse, Response};
use crate::{Event, EventKind};

/// What a routed handler receives: the typed part of the event it asked for (a [`ToolCall`],
/// a [`Prompt`]...), which it derefs to, and the whole [`Event`] ([`Routed::event`]) for the
/// rest (`cwd`, dialect, raw input).
#[derive(Debug)]
pub struct Routed<'e, T> {
    event: &'e Event,
    value: &'e T,
}

impl<T> Clone for Routed<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Routed<'_, T> {}

impl<'e, T> Routed<'e, T> {
    /// The whole event.
    pub fn event(&self) -> &'e Event {
        self.event
    }

    /// The typed part (also reached through `Deref`).
    pub fn value(&self) -> &'e T {
        self.value
    }
}

impl<T> Deref for Routed<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.value
    }
}

type Answer = Box<dyn Fn(&Event) -> Option<Result<Response, HookError>> + Send + Sync>;

struct Route {
    /// For `Debug`: the event and tool it routes.
    label: String,
    answer: Answer,
}

/// Handlers per event and tool, tried in order; the first that answers wins. Build it with
/// [`Router::new`] and the chained methods; it is a [`Handler`].
///
/// Each method is `on_` and the event it handles, as the agents name it, in snake case
/// ([`Router::on_pre_tool_use`] for `PreToolUse`, [`Router::on_stop`] for `Stop`); the
/// `_matching` forms take a guard on the call instead of a tool name, and
/// [`Router::on_event`] takes every event.
///
/// A [`Router`] is a [`Handler`], so `hook_sdk::run(router)` and
/// [`export_native!`](crate::export_native) take it as they take a function.
///
/// ```
/// use hook_sdk::{Dialect, Response, Router, Tool, testing};
///
/// fn router() -> Router {
///     Router::new()
///         // "Bash" as verboo and lime spell it; it matches wuu's `bash` too.
///         .on_pre_tool_use("Bash", |call| match &call.tool {
///             Tool::Bash { command, .. } if command.contains("rm -rf /") => {
///                 Response::deny("refusing to delete the root directory")
///             }
///             _ => Response::none(), // no decision: the next matching handler may answer
///         })
///         .on_pre_tool_use_matching(
///             |call| call.tool.paths().iter().any(|p| p.ends_with(".env")),
///             |call| Response::deny(format!("{} holds secrets", call.tool.paths().join(", "))),
///         )
///         .on_user_prompt_submit(|prompt| {
///             if prompt.prompt.contains("password") {
///                 Response::block("no passwords in prompts")
///             } else {
///                 Response::none()
///             }
///         })
/// }
///
/// # #[allow(clippy::needless_doctest_main)]
/// fn main() {
/// #   if false {
///     hook_sdk::run(router())
/// #   }
/// #   for dialect in Dialect::ALL {
/// #       testing::bash(dialect, "rm -rf /").run(router()).assert_blocked();
/// #       testing::read(dialect, ".env").run(router()).assert_blocked_because("secrets");
/// #       testing::bash(dialect, "ls").run(router()).assert_no_decision();
/// #   }
/// #   testing::apply_patch(Dialect::Lime, "*** Begin Patch\n*** Add File: .env\n+X=1\n*** End Patch\n")
/// #       .run(router()).assert_blocked();
/// }
/// ```
///
/// # Which handler answers
///
/// For each event, the handlers registered for it run **in the order they were added**; the
/// **first whose response is not [`Response::none()`] is the answer**, and the later ones do
/// not run. A handler's error (or a panic) ends the dispatch at once: the run fails, as the
/// handler of [`run`](crate::run()) would. When no handler answers, the answer is
/// [`Response::none()`]. Responses are not merged: to add context to a decision, return both
/// from one handler (`Response::deny(..).with_context(..)`).
///
/// # Tool names
///
/// [`Router::on_pre_tool_use`] and the other tool routes take the tool's name as verboo spells it
/// (`Bash`, `Write`, `MultiEdit`, `apply_patch`, `mcp__server__tool`), or `*` for every tool.
/// A name matches a call when the dialect's own exact-name matcher would select it (wuu
/// ignores case, so `Bash` matches `bash`; lime's `Edit` and `Write` also select
/// `apply_patch`, as its matchers do), or when the call's typed tool has that name (`Bash`
/// matches a `shell` call, whose tool is [`Tool::Bash`](crate::Tool::Bash)).
///
/// Handlers must be `Send + Sync + 'static` (plain functions and closures that capture
/// nothing or only shared data are), so a router can be kept in a `static`.
#[derive(Default)]
pub struct Router {
    routes: Vec<Route>,
}

impl fmt::Debug for Router {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Router")
            .field(
                "routes",
                &self.routes.iter().map(|r| &r.label).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// Whether the tool route `pattern` selects `call` in `dialect` (see the module docs).
pub fn tool_matches(dialect: Dialect, pattern: &str, call: &ToolCall) -> bool {
    if pattern.is_empty() || pattern == "*" {
        return true;
    }
    let rules = dialect.rules();
    let name = rules.matching().match_name(&call.name);
    rules.matching().match_name(pattern) == name
        || call.tool.canonical_name() == Some(pattern)
        || rules
            .matching()
            .tool_aliases()
            .iter()
            .any(|(alias, canonical)| {
                *alias == pattern && rules.matching().match_name(canonical) == name
            })
}

impl Router {
    /// A router with no handlers: it answers [`Response::none()`] to everything.
    pub fn new() -> Router {
        Router::default()
    }

    fn route<T: 'static, R: IntoResponse>(
        mut self,
        label: String,
        select: impl Fn(&Event) -> Option<&T> + Send + Sync + 'static,
        handler: impl Fn(Routed<'_, T>) -> R + Send + Sync + 'static,
    ) -> Router {
        let answer: Answer = Box::new(move |event: &Event| {
            let value = select(event)?;
            Some(handler(Routed { event, value }).into_response())
        });
        self.routes.push(Route { label, answer });
        self
    }

    /// Handles `PreToolUse` of the tool named `tool` (`Bash`, `Edit`, `mcp__server__tool`,
    /// `*` for all; see the module docs for how names match).
    #[must_use]
    pub fn on_pre_tool_use<R: IntoResponse>(
        self,
        tool: &str,
        handler: impl Fn(Routed<'_, ToolCall>) -> R + Send + Sync + 'static,
    ) -> Router {
        let pattern = tool.to_owned();
        self.pre_tool_where(
            format!("PreToolUse {tool}"),
            move |event, call| tool_matches(event.dialect(), &pattern, call),
            handler,
        )
    }

    /// Handles `PreToolUse` of every call for which `guard` is true (e.g. every call that
    /// writes files: `|call| call.tool.writes_files()`).
    #[must_use]
    pub fn on_pre_tool_use_matching<R: IntoResponse>(
        self,
        guard: impl Fn(&ToolCall) -> bool + Send + Sync + 'static,
        handler: impl Fn(Routed<'_, ToolCall>) -> R + Send + Sync + 'static,
    ) -> Router {
        self.pre_tool_where(
            "PreToolUse (guard)".to_owned(),
            move |_, call| guard(call),
            handler,
        )
    }

    fn pre_tool_where<R: IntoResponse>(
        self,
        label: String,
        guard: impl Fn(&Event, &ToolCall) -> bool + Send + Sync + 'static,
        handler: impl Fn(Routed<'_, ToolCall>) -> R + Send + Sync + 'static,
    ) -> Router {
        self.route(
            label,
            move |event| match event.kind() {
                EventKind::PreToolUse(call) if guard(event, call) => Some(call),
                _ => None,
            },
            handler,
        )
    }

    /// Handles `PermissionRequest` of the tool named `tool` (`*` for all).
    #[must_use]
    pub fn on_permission_request<R: IntoResponse>(
        self,
        tool: &str,
        handler: impl Fn(Routed<'_, ToolCall>) -> R + Send + Sync + 'static,
    ) -> Router {
        let pattern = tool.to_owned();
        self.route(
            format!("PermissionRequest {tool}"),
            move |event| match event.kind() {
                EventKind::PermissionRequest(call)
                    if tool_matches(event.dialect(), &pattern, call) =>
                {
                    Some(call)
                }
                _ => None,
            },
            handler,
        )
    }

    /// Handles `PostToolUse` of the tool named `tool` (`*` for all).
    #[must_use]
    pub fn on_post_tool_use<R: IntoResponse>(
        self,
        tool: &str,
        handler: impl Fn(Routed<'_, ToolResult>) -> R + Send + Sync + 'static,
    ) -> Router {
        let pattern = tool.to_owned();
        self.post_tool_where(
            format!("PostToolUse {tool}"),
            move |event, call| tool_matches(event.dialect(), &pattern, call),
            handler,
        )
    }

    /// Handles `PostToolUse` of every call for which `guard` is true.
    #[must_use]
    pub fn on_post_tool_use_matching<R: IntoResponse>(
        self,
        guard: impl Fn(&ToolCall) -> bool + Send + Sync + 'static,
        handler: impl Fn(Routed<'_, ToolResult>) -> R + Send + Sync + 'static,
    ) -> Router {
        self.post_tool_where(
            "PostToolUse (guard)".to_owned(),
            move |_, call| guard(call),
            handler,
        )
    }

    fn post_tool_where<R: IntoResponse>(
        self,
        label: String,
        guard: impl Fn(&Event, &ToolCall) -> bool + Send + Sync + 'static,
        handler: impl Fn(Routed<'_, ToolResult>) -> R + Send + Sync + 'static,
    ) -> Router {
        self.route(
            label,
            move |event| match event.kind() {
                EventKind::PostToolUse(result) if guard(event, &result.call) => Some(result),
                _ => None,
            },
            handler,
        )
    }

    /// Handles `UserPromptSubmit`.
    #[must_use]
    pub fn on_user_prompt_submit<R: IntoResponse>(
        self,
        handler: impl Fn(Routed<'_, Prompt>) -> R + Send + Sync + 'static,
    ) -> Router {
        self.route(
            "UserPromptSubmit".to_owned(),
            |event| match event.kind() {
                EventKind::UserPromptSubmit(prompt) => Some(prompt),
                _ => None,
            },
            handler,
        )
    }

    /// Handles `SessionStart`.
    #[must_use]
    pub fn on_session_start<R: IntoResponse>(
        self,
        handler: impl Fn(Routed<'_, SessionStart>) -> R + Send + Sync + 'static,
    ) -> Router {
        self.route(
            "SessionStart".to_owned(),
            |event| match event.kind() {
                EventKind::SessionStart(start) => Some(start),
                _ => None,
            },
            handler,
        )
    }

    /// Handles `Stop` (the main agent's; see [`Router::on_event`] for `SubagentStop`).
    #[must_use]
    pub fn on_stop<R: IntoResponse>(
        self,
        handler: impl Fn(Routed<'_, Stop>) -> R + Send + Sync + 'static,
    ) -> Router {
        self.route(
            "Stop".to_owned(),
            |event| match event.kind() {
                EventKind::Stop(stop) => Some(stop),
                _ => None,
            },
            handler,
        )
    }

    /// Handles every event (in its place in the order): for the events without a route of
    /// their own, or as a last fallback. The handler gets the [`Event`] itself.
    #[must_use]
    pub fn on_event<R: IntoResponse>(
        mut self,
        handler: impl Fn(&Event) -> R + Send + Sync + 'static,
    ) -> Router {
        self.routes.push(Route {
            label: "any event".to_owned(),
            answer: Box::new(move |event| Some(handler(event).into_response())),
        });
        self
    }
}

impl Handler for Router {
    fn handle(&self, event: &Event) -> Result<Response, HookError> {
        for route in &self.routes {
            if let Some(answer) = (route.answer)(event) {
                let response = answer?;
                if !response.is_none() {
                    return Ok(response);
                }
            }
        }
        Ok(Response::none())
    }
}

impl Handler for &Router {
    fn handle(&self, event: &Event) -> Result<Response, HookError> {
        (**self).handle(event)
    }
}

//! The typed input of a tool call, for the tools the three dialects name.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::EventError;
#[cfg(doc)]
use super::{Event, ToolCall};

/// The input of a tool call, typed for the tools the three dialects name.
///
/// Tool names are matched ignoring case, `_` and `-` (wuu spells `bash`, `multiedit`...;
/// verboo and lime `Bash`, `MultiEdit`...; lime's patch tool is `apply_patch`), and field names
/// are those of the agents' tools (`file_path`, `old_string`...). A typed tool's input must
/// have the fields its variant requires (an error names the one missing); optional fields
/// default, and fields this SDK does not type are kept in [`ToolCall::input`] (and by
/// [`ToolCall::rewritten`]).
///
/// `#[non_exhaustive]`: a tool may get its own variant in a minor release (until then it is
/// [`Tool::Other`]), so a `match` needs a `_` arm.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Tool {
    /// A shell command (`Bash`, wuu `bash`, `shell`).
    Bash {
        /// The command line.
        command: String,
        /// What the command does, when the agent says.
        description: Option<String>,
    },
    /// Write a whole file.
    Write {
        /// The file.
        file_path: String,
        /// Its new content.
        content: String,
    },
    /// Replace text in a file.
    Edit {
        /// The file.
        file_path: String,
        /// The text replaced.
        old_string: String,
        /// The text put in its place.
        new_string: String,
        /// Replace every occurrence, not just one.
        replace_all: bool,
    },
    /// Read a file.
    Read {
        /// The file.
        file_path: String,
    },
    /// Several replacements in one file (`MultiEdit`), applied in order.
    MultiEdit {
        /// The file.
        file_path: String,
        /// The replacements.
        edits: Vec<TextEdit>,
    },
    /// Find files by a glob pattern (`Glob`).
    Glob {
        /// The pattern (`**/*.rs`).
        pattern: String,
        /// The directory searched, when not the session's.
        path: Option<String>,
    },
    /// Search file contents (`Grep`).
    Grep {
        /// The regular expression.
        pattern: String,
        /// The file or directory searched, when not the session's.
        path: Option<String>,
        /// A glob the searched files must match.
        glob: Option<String>,
    },
    /// Fetch a web page (`WebFetch`).
    WebFetch {
        /// The URL.
        url: String,
        /// What to extract from the page, when the agent says.
        prompt: Option<String>,
    },
    /// Search the web (`WebSearch`).
    WebSearch {
        /// The query.
        query: String,
    },
    /// Start a subagent (`Task`).
    Task {
        /// The subagent's task.
        prompt: String,
        /// A short description, when the agent gives one.
        description: Option<String>,
        /// The kind of subagent, when the agent names one.
        subagent_type: Option<String>,
    },
    /// Edit a cell of a Jupyter notebook (`NotebookEdit`).
    NotebookEdit {
        /// The notebook.
        notebook_path: String,
        /// The cell's new source (absent when a cell is deleted).
        new_source: Option<String>,
        /// The cell, when the agent names one.
        cell_id: Option<String>,
        /// `replace`, `insert` or `delete`, when the agent says.
        edit_mode: Option<String>,
    },
    /// A patch (lime's `apply_patch`): the patch text and the files it touches.
    ApplyPatch {
        /// The patch text (`*** Begin Patch` ... `*** End Patch`), from `tool_input.command`
        /// (or `patch`, `input`, or the input itself when it is a string).
        patch: String,
        /// Every file the patch adds, updates, deletes or moves to, in order, each once
        /// ([`patch_files`]). Ignored when the tool is written back as an input: the patch is
        /// what the agent applies.
        files: Vec<String>,
    },
    /// A tool of an MCP server (`mcp__server__tool`).
    Mcp {
        /// The server's name.
        server: String,
        /// The tool's name on that server.
        tool: String,
        /// The tool's input as sent.
        input: Value,
    },
    /// Any other tool: its input as sent.
    Other(Value),
}

/// One replacement of a [`Tool::MultiEdit`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct TextEdit {
    /// The text replaced.
    pub old_string: String,
    /// The text put in its place.
    pub new_string: String,
    /// Replace every occurrence, not just one.
    #[serde(default)]
    pub replace_all: bool,
}

impl TextEdit {
    /// Replaces one occurrence of `old_string` with `new_string`.
    pub fn new(old_string: impl Into<String>, new_string: impl Into<String>) -> TextEdit {
        TextEdit {
            old_string: old_string.into(),
            new_string: new_string.into(),
            replace_all: false,
        }
    }

    /// Replaces every occurrence instead of one.
    #[must_use]
    pub fn replacing_all(mut self) -> TextEdit {
        self.replace_all = true;
        self
    }

    fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("old_string".into(), Value::String(self.old_string.clone()));
        object.insert("new_string".into(), Value::String(self.new_string.clone()));
        if self.replace_all {
            object.insert("replace_all".into(), Value::Bool(true));
        }
        Value::Object(object)
    }
}

/// The files a patch in lime's `apply_patch` format touches: the paths of its
/// `*** Add File: p`, `*** Update File: p`, `*** Delete File: p` and `*** Move to: p` lines,
/// in order, each once.
pub fn patch_files(patch: &str) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for line in patch.lines() {
        let line = line.trim_end();
        let path = [
            "*** Add File: ",
            "*** Update File: ",
            "*** Delete File: ",
            "*** Move to: ",
        ]
        .iter()
        .find_map(|header| line.strip_prefix(header));
        if let Some(path) = path.map(str::trim).filter(|p| !p.is_empty())
            && !files.iter().any(|f| f == path)
        {
            files.push(path.to_owned());
        }
    }
    files
}

#[derive(Deserialize)]
struct BashInput {
    command: String,
    #[serde(default)]
    description: Option<String>,
}

#[derive(Deserialize)]
struct WriteInput {
    file_path: String,
    content: String,
}

#[derive(Deserialize)]
struct EditInput {
    file_path: String,
    old_string: String,
    new_string: String,
    #[serde(default)]
    replace_all: Option<bool>,
}

#[derive(Deserialize)]
struct ReadInput {
    file_path: String,
}

#[derive(Deserialize)]
struct MultiEditInput {
    file_path: String,
    edits: Vec<TextEdit>,
}

#[derive(Deserialize)]
struct GlobInput {
    pattern: String,
    #[serde(default)]
    path: Option<String>,
}

#[derive(Deserialize)]
struct GrepInput {
    pattern: String,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    glob: Option<String>,
}

#[derive(Deserialize)]
struct WebFetchInput {
    url: String,
    #[serde(default)]
    prompt: Option<String>,
}

#[derive(Deserialize)]
struct WebSearchInput {
    query: String,
}

#[derive(Deserialize)]
struct TaskInput {
    prompt: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    subagent_type: Option<String>,
}

#[derive(Deserialize)]
struct NotebookEditInput {
    notebook_path: String,
    #[serde(default)]
    new_source: Option<String>,
    #[serde(default)]
    cell_id: Option<String>,
    #[serde(default)]
    edit_mode: Option<String>,
}

/// A tool's name as [`Tool::parse`] compares it: lowercase, without `_` and `-`.
fn folded(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The server and tool of an MCP tool name, `mcp__server__tool`.
fn mcp_name(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

impl Tool {
    /// Types `input` by the tool's name (ignoring case, `_` and `-`); MCP tools
    /// (`mcp__server__tool`) are [`Tool::Mcp`], unknown tools [`Tool::Other`].
    ///
    /// # Errors
    ///
    /// [`EventError`] when a typed tool's input lacks a field its variant requires or has one
    /// of the wrong type.
    pub fn parse(name: &str, input: &Value) -> Result<Tool, EventError> {
        fn read<T: serde::de::DeserializeOwned>(
            name: &str,
            input: &Value,
        ) -> Result<T, EventError> {
            T::deserialize(input).map_err(|error| EventError::ToolInput {
                tool: name.to_owned(),
                message: error.to_string(),
            })
        }
        if let Some((server, tool)) = mcp_name(name) {
            return Ok(Tool::Mcp {
                server: server.to_owned(),
                tool: tool.to_owned(),
                input: input.clone(),
            });
        }
        Ok(match folded(name).as_str() {
            "bash" | "shell" => {
                let BashInput {
                    command,
                    description,
                } = read(name, input)?;
                Tool::Bash {
                    command,
                    description,
                }
            }
            "write" => {
                let WriteInput { file_path, content } = read(name, input)?;
                Tool::Write { file_path, content }
            }
            "edit" => {
                let EditInput {
                    file_path,
                    old_string,
                    new_string,
                    replace_all,
                } = read(name, input)?;
                Tool::Edit {
                    file_path,
                    old_string,
                    new_string,
                    replace_all: replace_all.unwrap_or(false),
                }
            }
            "read" => {
                let ReadInput { file_path } = read(name, input)?;
                Tool::Read { file_path }
            }
            "multiedit" => {
                let MultiEditInput { file_path, edits } = read(name, input)?;
                Tool::MultiEdit { file_path, edits }
            }
            "glob" => {
                let GlobInput { pattern, path } = read(name, input)?;
                Tool::Glob { pattern, path }
            }
            "grep" => {
                let GrepInput {
                    pattern,
                    path,
                    glob,
                } = read(name, input)?;
                Tool::Grep {
                    pattern,
                    path,
                    glob,
                }
            }
            "webfetch" => {
                let WebFetchInput { url, prompt } = read(name, input)?;
                Tool::WebFetch { url, prompt }
            }
            "websearch" => {
                let WebSearchInput { query } = read(name, input)?;
                Tool::WebSearch { query }
            }
            "task" => {
                let TaskInput {
                    prompt,
                    description,
                    subagent_type,
                } = read(name, input)?;
                Tool::Task {
                    prompt,
                    description,
                    subagent_type,
                }
            }
            "notebookedit" => {
                let NotebookEditInput {
                    notebook_path,
                    new_source,
                    cell_id,
                    edit_mode,
                } = read(name, input)?;
                Tool::NotebookEdit {
                    notebook_path,
                    new_source,
                    cell_id,
                    edit_mode,
                }
            }
            "applypatch" => {
                let text = match input {
                    Value::String(text) => Some(text),
                    Value::Object(object) => ["command", "patch", "input"].iter().find_map(|key| {
                        match object.get(*key) {
                            Some(Value::String(text)) => Some(text),
                            _ => None,
                        }
                    }),
                    _ => None,
                };
                let Some(patch) = text else {
                    return Err(EventError::ToolInput {
                        tool: name.to_owned(),
                        message: "missing field `command` (the patch text)".to_owned(),
                    });
                };
                Tool::ApplyPatch {
                    files: patch_files(patch),
                    patch: patch.clone(),
                }
            }
            _ => Tool::Other(input.clone()),
        })
    }

    /// The tool's name as verboo spells it (`Bash`, `MultiEdit`; lime's patch tool is
    /// `apply_patch`); `None` for [`Tool::Mcp`] and [`Tool::Other`], whose name is the call's.
    pub fn canonical_name(&self) -> Option<&'static str> {
        Some(match self {
            Tool::Bash { .. } => "Bash",
            Tool::Write { .. } => "Write",
            Tool::Edit { .. } => "Edit",
            Tool::Read { .. } => "Read",
            Tool::MultiEdit { .. } => "MultiEdit",
            Tool::Glob { .. } => "Glob",
            Tool::Grep { .. } => "Grep",
            Tool::WebFetch { .. } => "WebFetch",
            Tool::WebSearch { .. } => "WebSearch",
            Tool::Task { .. } => "Task",
            Tool::NotebookEdit { .. } => "NotebookEdit",
            Tool::ApplyPatch { .. } => "apply_patch",
            Tool::Mcp { .. } | Tool::Other(_) => return None,
        })
    }

    /// The one file a `Write`, `Edit`, `MultiEdit`, `Read` or `NotebookEdit` call touches
    /// (an `apply_patch` may touch several: see [`Tool::paths`]).
    pub fn file_path(&self) -> Option<&str> {
        match self {
            Tool::Write { file_path, .. }
            | Tool::Edit { file_path, .. }
            | Tool::MultiEdit { file_path, .. }
            | Tool::Read { file_path } => Some(file_path),
            Tool::NotebookEdit { notebook_path, .. } => Some(notebook_path),
            _ => None,
        }
    }

    /// Every file the call reads or writes: the file of `Read`, `Write`, `Edit`, `MultiEdit`
    /// and `NotebookEdit`, the files of an `apply_patch`; empty for the other tools (a `Bash`
    /// command's files are not known: read its `command`).
    pub fn paths(&self) -> Vec<&str> {
        match self {
            Tool::ApplyPatch { files, .. } => files.iter().map(String::as_str).collect(),
            other => other.file_path().into_iter().collect(),
        }
    }

    /// Whether the call changes files: `Write`, `Edit`, `MultiEdit`, `NotebookEdit`,
    /// `apply_patch`.
    pub fn writes_files(&self) -> bool {
        matches!(
            self,
            Tool::Write { .. }
                | Tool::Edit { .. }
                | Tool::MultiEdit { .. }
                | Tool::NotebookEdit { .. }
                | Tool::ApplyPatch { .. }
        )
    }
}

impl From<Tool> for Map<String, Value> {
    /// The tool's input object, with the typed fields only (use [`ToolCall::rewritten`] to keep
    /// the others). An `apply_patch` is `{"command": patch}`, an MCP tool its input.
    fn from(tool: Tool) -> Self {
        let mut object = Map::new();
        let mut put = |key: &str, value: Value| {
            object.insert(key.to_owned(), value);
        };
        let text = |value: String| Value::String(value);
        match tool {
            Tool::Bash {
                command,
                description,
            } => {
                put("command", text(command));
                if let Some(description) = description {
                    put("description", text(description));
                }
            }
            Tool::Write { file_path, content } => {
                put("file_path", text(file_path));
                put("content", text(content));
            }
            Tool::Edit {
                file_path,
                old_string,
                new_string,
                replace_all,
            } => {
                put("file_path", text(file_path));
                put("old_string", text(old_string));
                put("new_string", text(new_string));
                if replace_all {
                    put("replace_all", Value::Bool(true));
                }
            }
            Tool::Read { file_path } => put("file_path", text(file_path)),
            Tool::MultiEdit { file_path, edits } => {
                put("file_path", text(file_path));
                put(
                    "edits",
                    Value::Array(edits.iter().map(TextEdit::to_value).collect()),
                );
            }
            Tool::Glob { pattern, path } => {
                put("pattern", text(pattern));
                if let Some(path) = path {
                    put("path", text(path));
                }
            }
            Tool::Grep {
                pattern,
                path,
                glob,
            } => {
                put("pattern", text(pattern));
                if let Some(path) = path {
                    put("path", text(path));
                }
                if let Some(glob) = glob {
                    put("glob", text(glob));
                }
            }
            Tool::WebFetch { url, prompt } => {
                put("url", text(url));
                if let Some(prompt) = prompt {
                    put("prompt", text(prompt));
                }
            }
            Tool::WebSearch { query } => put("query", text(query)),
            Tool::Task {
                prompt,
                description,
                subagent_type,
            } => {
                put("prompt", text(prompt));
                if let Some(description) = description {
                    put("description", text(description));
                }
                if let Some(subagent_type) = subagent_type {
                    put("subagent_type", text(subagent_type));
                }
            }
            Tool::NotebookEdit {
                notebook_path,
                new_source,
                cell_id,
                edit_mode,
            } => {
                put("notebook_path", text(notebook_path));
                if let Some(new_source) = new_source {
                    put("new_source", text(new_source));
                }
                if let Some(cell_id) = cell_id {
                    put("cell_id", text(cell_id));
                }
                if let Some(edit_mode) = edit_mode {
                    put("edit_mode", text(edit_mode));
                }
            }
            Tool::ApplyPatch { patch, .. } => put("command", text(patch)),
            Tool::Mcp {
                input: Value::Object(input),
                ..
            }
            | Tool::Other(Value::Object(input)) => return input,
            Tool::Mcp { .. } | Tool::Other(_) => {}
        }
        object
    }
}

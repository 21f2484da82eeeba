//! JSON pointers (RFC 6901) for the places errors are found.

/// The JSON pointer of a `serde_path_to_error` path, e.g. `/hookSpecificOutput/decision`.
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
            Segment::Map { key } | Segment::Enum { variant: key } => push_token(&mut pointer, key),
            Segment::Unknown => {}
        }
    }
    pointer
}

/// Appends `/token` to a pointer, escaping `~` and `/` as RFC 6901 requires.
pub(crate) fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
}

/// A pointer that is displayed in messages: the empty pointer (the whole document) reads as `/`.
pub(crate) fn display_pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

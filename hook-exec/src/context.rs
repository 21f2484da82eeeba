//! lime's `additionalContextLimit`: context over the limit reaches the model as a head and tail
//! preview plus the path of a side file that holds the whole text.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// `text` if it fits in `limit` characters (0 turns the limit off); otherwise a preview of the
/// first and last `limit / 2` characters around a note naming the side file written under
/// `dir`. Returns a warning instead when the side file cannot be written.
pub fn limit_context(text: &str, limit: u64, dir: &Path, key: &str) -> Result<String, String> {
    let length = text.chars().count();
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    if limit == 0 || length <= limit {
        return Ok(text.to_owned());
    }
    let path = dir.join(side_file_name(key));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, text))
        .map_err(|error| {
            format!("additionalContext is over its limit of {limit} characters but the side file {} cannot be written ({error}); the whole text is kept", path.display())
        })?;
    let half = limit / 2;
    let head: String = text.chars().take(half).collect();
    let tail: String = text.chars().skip(length - half).collect();
    Ok(format!(
        "{head}\n[... {} of {length} characters omitted; the whole text is in {} ...]\n{tail}",
        length - 2 * half,
        path.display()
    ))
}

fn side_file_name(key: &str) -> String {
    let safe: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{safe}-{}-{nanos}.txt", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_and_a_zero_limit_pass_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(limit_context("héllo", 5, dir.path(), "k").unwrap(), "héllo");
        assert_eq!(
            limit_context(&"x".repeat(50), 0, dir.path(), "k").unwrap(),
            "x".repeat(50)
        );
    }

    #[test]
    fn long_text_becomes_a_preview_and_a_side_file() {
        let dir = tempfile::tempdir().unwrap();
        let text = format!("{}{}{}", "a".repeat(10), "é".repeat(30), "z".repeat(10));
        let preview = limit_context(&text, 20, dir.path(), "user:config.toml:Stop::0").unwrap();
        assert!(preview.starts_with(&"a".repeat(10)));
        assert!(preview.ends_with(&"z".repeat(10)));
        assert!(preview.contains("[... 30 of 50 characters omitted; the whole text is in "));
        let file = std::fs::read_dir(dir.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        assert!(preview.contains(&file.display().to_string()));
        assert_eq!(std::fs::read_to_string(file).unwrap(), text);
    }
}

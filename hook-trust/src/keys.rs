//! Naming hooks on a command line: unknown keys and the nearest known ones.

/// A key that names no known hook.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no hook has the key `{key}`{}", nearest_list(nearest))]
#[non_exhaustive]
pub struct UnknownKey {
    /// The key given.
    pub key: String,
    /// The known keys nearest to it, nearest first (at most 3).
    pub nearest: Vec<String>,
}

fn nearest_list(nearest: &[String]) -> String {
    if nearest.is_empty() {
        "; `hook list` shows every key".to_owned()
    } else {
        format!("; the nearest known keys are: {}", nearest.join(", "))
    }
}

/// Checks that every key of `keys` is in `known`; the first that is not is an error listing
/// the nearest known keys.
///
/// # Errors
///
/// The first unknown key, with the nearest known ones as suggestions.
pub fn check_keys<'a>(
    keys: &[String],
    known: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<(), UnknownKey> {
    for key in keys {
        if !known.clone().into_iter().any(|k| k == key) {
            return Err(UnknownKey {
                key: key.clone(),
                nearest: nearest_keys(key, known, 3),
            });
        }
    }
    Ok(())
}

/// The `n` keys of `known` nearest to `key` by edit distance (ties in the given order),
/// leaving out those so far they share little with it.
pub fn nearest_keys<'a>(
    key: &str,
    known: impl IntoIterator<Item = &'a str>,
    n: usize,
) -> Vec<String> {
    let mut scored: Vec<(usize, &str)> = known
        .into_iter()
        .map(|candidate| (strsim::levenshtein(key, candidate), candidate))
        .filter(|(distance, candidate)| {
            *distance <= key.chars().count().max(candidate.chars().count()) * 2 / 3
        })
        .collect();
    scored.sort_by_key(|(distance, _)| *distance);
    scored.dedup_by(|a, b| a.1 == b.1);
    scored
        .into_iter()
        .take(n)
        .map(|(_, k)| k.to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_keys_rank_by_edit_distance() {
        let known = [
            "user:config.toml:PreToolUse:Bash:0",
            "user:config.toml:PreToolUse:Bash:1",
            "user:config.toml:Stop::0",
        ];
        let near = nearest_keys("user:config.toml:PreToolUse:bash:1", known, 2);
        assert_eq!(
            near,
            [
                "user:config.toml:PreToolUse:Bash:1",
                "user:config.toml:PreToolUse:Bash:0"
            ]
        );
        assert!(nearest_keys("zzzz", known, 3).is_empty());
        let error = check_keys(&["user:config.toml:Stop::1".to_owned()], known).unwrap_err();
        assert_eq!(error.nearest[0], "user:config.toml:Stop::0");
        assert!(error.to_string().contains("nearest known keys"));
    }
}

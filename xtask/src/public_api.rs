//! The semver review of the library crates' public types, kept true by `cargo xtask tidy`.
//!
//! Vendors match on our enums and build our structs for years, so each public type says what
//! may change under them. A `pub struct` or `pub enum` of a library crate passes when it is
//! one of:
//!
//! - `#[non_exhaustive]`: a variant or field may be added in a minor release;
//! - documented as closed, with the words "closed on purpose" and the reason (a new variant
//!   must not compile unnoticed, or the type is complete by nature);
//! - a struct whose fields are all private (adding one breaks nobody).
//!
//! The scan is line-based, like `check_prints`: a type is read from its `pub struct`/`pub enum`
//! line, its attributes and doc comments are the lines just above it, and a `#[cfg(test)]`
//! module ends the file's public part (test modules sit at the end). Types declared inside
//! `macro_rules!` bodies (`pub struct $name`) are not seen; the macros' own docs state their
//! rule.

/// The words a closed type's documentation must contain (case-insensitive).
pub(crate) const CLOSED: &str = "closed on purpose";

/// Every public type of `text` (the file `file`) that is neither `#[non_exhaustive]`, nor
/// documented as closed, nor a struct with private fields only; as `file:line: ...` problems.
pub(crate) fn check_public_types(file: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut problems = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let next = lines.get(index + 1).map_or("", |l| l.trim_start());
        if trimmed.starts_with("#[cfg(test)]") && next.starts_with("mod ") {
            break;
        }
        let Some((kind, name)) = public_type(trimmed) else {
            continue;
        };
        let above = attributes_above(&lines, index);
        let exhaustive_ok = above.iter().any(|l| l.contains("#[non_exhaustive]"))
            || above
                .iter()
                .any(|l| l.to_ascii_lowercase().contains(CLOSED));
        if exhaustive_ok || (kind == "struct" && !has_public_fields(&lines, index)) {
            continue;
        }
        problems.push(format!(
            "{file}:{}: public {kind} `{name}` is neither #[non_exhaustive] nor documented as closed: add #[non_exhaustive] (and a constructor if vendors build it), or say in its doc why it is \"{CLOSED}\"",
            index + 1
        ));
    }
    problems
}

/// `("struct" | "enum", name)` when `line` declares a public (not `pub(crate)`) type.
fn public_type(line: &str) -> Option<(&'static str, &str)> {
    let rest = line.strip_prefix("pub ")?;
    let (kind, rest) = if let Some(rest) = rest.strip_prefix("struct ") {
        ("struct", rest)
    } else {
        ("enum", rest.strip_prefix("enum ")?)
    };
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    (!name.is_empty()).then_some((kind, name))
}

/// The attribute, derive and doc-comment lines directly above line `index`.
fn attributes_above<'t>(lines: &[&'t str], index: usize) -> Vec<&'t str> {
    let mut above = Vec::new();
    let mut in_attribute = false;
    for line in lines[..index].iter().rev() {
        let trimmed = line.trim();
        // A multi-line `#[derive(\n ... \n)]`, read bottom-up: from `)]` to `#[`.
        if trimmed.ends_with(")]") && !trimmed.starts_with("#[") {
            in_attribute = true;
        }
        let attribute_part = in_attribute || trimmed.starts_with("#[") || trimmed.starts_with("//");
        if !attribute_part {
            break;
        }
        if trimmed.starts_with("#[") {
            in_attribute = false;
        }
        above.push(*line);
    }
    above
}

/// Whether the struct declared on line `index` has a `pub` field (braced or tuple).
fn has_public_fields(lines: &[&str], index: usize) -> bool {
    let declaration = lines[index];
    if let Some(open) = declaration.find('(') {
        return declaration[open..].contains("pub ");
    }
    if !declaration.contains('{') {
        return false;
    }
    let indent = declaration.len() - declaration.trim_start().len();
    let close = format!("{}}}", &declaration[..indent]);
    lines[index + 1..]
        .iter()
        .take_while(|line| !line.starts_with(&close))
        .any(|line| line.trim_start().starts_with("pub ") && line.contains(':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_public_enum_fails_naming_the_fix() {
        let text = "/// A thing.\n#[derive(Debug)]\npub enum Thing {\n    A,\n}\n";
        let problems = check_public_types("src/lib.rs", text);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("src/lib.rs:3: public enum `Thing`"));
        assert!(problems[0].contains("add #[non_exhaustive]"));
    }

    #[test]
    fn non_exhaustive_closed_and_private_types_pass() {
        let text = "\
/// Grows.
#[derive(Debug)]
#[non_exhaustive]
pub enum Grows {
    A,
}

/// Closed on purpose: three is the specification.
#[derive(
    Debug,
    Clone,
)]
pub enum Three {
    A,
}

/// Private fields only.
pub struct Opaque {
    inner: u8,
}

pub struct Unit;

pub struct Wrapper(u8);

pub(crate) struct Internal {
    pub field: u8,
}
";
        assert_eq!(check_public_types("f.rs", text), Vec::<String>::new());
    }

    #[test]
    fn public_fields_make_a_struct_api() {
        let text = "pub struct Open {\n    pub field: u8,\n}\n\npub struct Tuple(pub u8);\n";
        let problems = check_public_types("f.rs", text);
        assert_eq!(problems.len(), 2, "{problems:?}");
    }

    #[test]
    fn a_test_only_function_does_not_end_the_scan() {
        let text = "#[cfg(test)]\nfn helper() {}\n\npub enum Later {\n    A,\n}\n";
        assert_eq!(check_public_types("f.rs", text).len(), 1);
    }

    #[test]
    fn test_modules_are_not_api() {
        let text =
            "#[cfg(test)]\nmod tests {\n    pub struct Fixture {\n        pub a: u8,\n    }\n}\n";
        assert!(check_public_types("f.rs", text).is_empty());
    }
}

//! The code of a Rust source file as tidy's checks read it: its lines outside comments and
//! `#[cfg(test)]` items. Below both [`crate::tidy`] and [`crate::import_cycles`], which read
//! files the same way, so neither imports the other for it.

/// The lines of `text` outside comments and test items (`#[cfg(test)]`,
/// `#[cfg(all(test, unix))]`), numbered from 1, without their comments.
pub(crate) fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut in_block = false;
    let mut test_item = TestItem::Outside;
    for (number, line) in text.lines().enumerate() {
        match test_item {
            TestItem::Outside if is_test_attribute(line) => {
                test_item = TestItem::Attributes;
                continue;
            }
            TestItem::Outside => {}
            TestItem::Attributes => {
                if line.starts_with("#[") {
                    continue;
                }
                test_item = if line.trim_end().ends_with(';') {
                    TestItem::Outside
                } else {
                    TestItem::Body
                };
                continue;
            }
            TestItem::Body => {
                if line.starts_with('}') {
                    test_item = TestItem::Outside;
                }
                continue;
            }
        }
        lines.push((number + 1, strip_comments(line, &mut in_block)));
    }
    lines
}

/// Whether `line` opens an item compiled only for tests: `#[cfg(test)]`, or an `all(...)`
/// that needs `test` first (`#[cfg(all(test, unix))]`), at column 0 as rustfmt leaves it.
fn is_test_attribute(line: &str) -> bool {
    line.starts_with("#[cfg(test)]") || line.starts_with("#[cfg(all(test,")
}

/// Where [`code_lines`] is, against `#[cfg(test)]` items.
#[derive(Clone, Copy)]
enum TestItem {
    /// Not in a test item.
    Outside,
    /// After `#[cfg(test)]`, among the item's attributes.
    Attributes,
    /// Inside the item's body, until its closing `}` at column 0.
    Body,
}

/// `line` without its comments; `in_block` carries an open `/* */` across lines. String
/// literals are not parsed: a `//` inside one ends the code early (a missed hit, never a
/// false one).
pub(crate) fn strip_comments(line: &str, in_block: &mut bool) -> String {
    let mut code = String::new();
    let mut rest = line;
    loop {
        if *in_block {
            match rest.find("*/") {
                Some(end) => {
                    rest = &rest[end + 2..];
                    *in_block = false;
                }
                None => return code,
            }
        }
        let line_comment = rest.find("//");
        let block = rest.find("/*");
        match (line_comment, block) {
            (Some(l), Some(b)) if b < l => {
                code.push_str(&rest[..b]);
                rest = &rest[b + 2..];
                *in_block = true;
            }
            (Some(l), _) => {
                code.push_str(&rest[..l]);
                return code;
            }
            (None, Some(b)) => {
                code.push_str(&rest[..b]);
                rest = &rest[b + 2..];
                *in_block = true;
            }
            (None, None) => {
                code.push_str(rest);
                return code;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_items_are_left_out_whatever_their_cfg_adds() {
        // (the attribute, whether the item is code outside tests)
        let table = [
            ("#[cfg(test)]", false),
            ("#[cfg(all(test, unix))]", false),
            ("#[cfg(any(test, feature = \"x\"))]", true),
            ("#[cfg(unix)]", true),
        ];
        for (attribute, code) in table {
            let text =
                format!("{attribute}\nmod tests {{\n    use super::*;\n}}\nfn after() {{}}\n");
            let lines: Vec<usize> = code_lines(&text).into_iter().map(|(n, _)| n).collect();
            let expected: &[usize] = if code { &[1, 2, 3, 4, 5] } else { &[5] };
            assert_eq!(lines, expected, "{attribute}");
        }
    }
}

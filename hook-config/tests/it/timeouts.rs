//! Default and maximum timeouts per dialect, event and handler type, from real files.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use hook_protocol::Dialect;

/// (dialect, config text, effective timeouts in seconds in handler order, diagnostics expected)
#[test]
fn effective_timeouts_follow_each_dialects_defaults_and_caps() {
    let table: &[(Dialect, &str, &[f64], usize)] = &[
        (
            Dialect::Lime,
            "[[hooks.SessionEnd]]\n[[hooks.SessionEnd.hooks]]\ntype = \"command\"\ncommand = \"a\"\n\
             [[hooks.SessionEnd.hooks]]\ntype = \"command\"\ncommand = \"b\"\ntimeout = 2\n\
             [[hooks.SessionEnd.hooks]]\ntype = \"command\"\ncommand = \"c\"\ntimeout = 30\n\
             [[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"d\"\n",
            // SessionEnd: 1 s default, 2 s as written, 30 s capped to 3 s (a warning); Stop 600 s.
            &[1.0, 2.0, 3.0, 600.0],
            1,
        ),
        (
            Dialect::Wuu,
            r#"{"hooks": {"Stop": [{"command": "a"}, {"command": "b", "timeout": 0}, {"command": "c", "timeout": 7}]}}"#,
            // Omitted or non-positive means 30 (a warning for the 0).
            &[30.0, 30.0, 7.0],
            1,
        ),
        (
            Dialect::Verboo,
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"},
                {"type": "prompt", "prompt": "p"}, {"type": "agent", "prompt": "p"}]}]}}"#,
            &[600.0, 30.0, 60.0],
            0,
        ),
    ];
    for (dialect, text, want, diagnostics) in table {
        let (_dir, _path, loaded) = crate::common::load_user_file(*dialect, text);
        assert!(!loaded.has_errors(), "{dialect}: {:?}", loaded.diagnostics);
        let got: Vec<f64> = loaded
            .registry
            .handlers()
            .iter()
            .map(|h| h.timeout.as_secs_f64())
            .collect();
        assert_eq!(&got, want, "{dialect}");
        assert_eq!(
            loaded.diagnostics.len(),
            *diagnostics,
            "{dialect}: {:?}",
            loaded.diagnostics
        );
    }
}

//! [`Offered`]: a flag's parser with the values shell completions offer for it (`hook
//! completions`). The parser is the command's own (its errors, its "did you mean"), the values
//! come from the tables it parses against: nothing here lists a name.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};

/// A value parser (`parse`) whose possible values are `values()`, so that completions offer
/// them. Give the flag `hide_possible_values = true`: its help already names them in words.
#[derive(Clone, Copy)]
pub(crate) struct Offered<T> {
    parse: fn(&str) -> Result<T, String>,
    values: fn() -> Vec<&'static str>,
}

impl<T> Offered<T> {
    /// `parse`, offering `values()`.
    pub(crate) const fn new(
        parse: fn(&str) -> Result<T, String>,
        values: fn() -> Vec<&'static str>,
    ) -> Offered<T> {
        Offered { parse, values }
    }
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Offered<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        // A function's own parsing, so that its errors read exactly as they did.
        self.parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            (self.values)().into_iter().map(PossibleValue::new),
        ))
    }
}

/// Any value, as given: for a flag whose values depend on another flag (an event's name on the
/// dialect's), checked by the command; the values offered are every one it may take.
pub(crate) fn any(value: &str) -> Result<String, String> {
    Ok(value.to_owned())
}

impl<T> std::fmt::Debug for Offered<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Offered")
            .field("values", &(self.values)())
            .finish_non_exhaustive()
    }
}

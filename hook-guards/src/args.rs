//! A program's arguments as the guards read them: its options with their values and its
//! operands ([`Options`]), `git`'s subcommand after its global options ([`git`]), and `find`'s
//! starting folders before its expression ([`find`]).

/// A program's arguments, read with the options that take a value.
#[derive(Debug, Default)]
pub(crate) struct Options<'a> {
    /// Each option (`-i`, `--in-place`) with its value, if it takes one.
    pub(crate) options: Vec<(String, Option<&'a str>)>,
    /// The other arguments, those after `--` too.
    pub(crate) operands: Vec<&'a str>,
    /// How many operands come before `--`, when there is one.
    pub(crate) dashes: Option<usize>,
}

impl<'a> Options<'a> {
    /// Reads `args`: the `valued` short options take the rest of their cluster or the next
    /// argument (`-uroot`, `-u root`), the `attached` ones the rest of their cluster only
    /// (`sed -i.bak`), the `long` ones `--name=value` or the next argument; every other letter
    /// of a cluster is an option of its own (`-rf`); `-` is an operand.
    pub(crate) fn read(
        args: &'a [String],
        valued: &str,
        attached: &str,
        long: &[&str],
    ) -> Options<'a> {
        let mut read = Options::default();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            if arg == "--" {
                read.dashes = Some(read.operands.len());
                read.operands.extend(args.by_ref().map(String::as_str));
            } else if let Some(name) = arg.strip_prefix("--") {
                let (name, value) = match name.split_once('=') {
                    Some((name, value)) => (name, Some(value)),
                    None if long.contains(&name) => (name, args.next().map(String::as_str)),
                    None => (name, None),
                };
                read.options.push((format!("--{name}"), value));
            } else if let Some(cluster) = arg.strip_prefix('-').filter(|c| !c.is_empty()) {
                for (at, letter) in cluster.char_indices() {
                    let rest = &cluster[at + letter.len_utf8()..];
                    let value = if valued.contains(letter) {
                        Some(if rest.is_empty() {
                            args.next().map(String::as_str)
                        } else {
                            Some(rest)
                        })
                    } else if attached.contains(letter) {
                        Some(Some(rest))
                    } else {
                        None
                    };
                    read.options.push((format!("-{letter}"), value.flatten()));
                    if value.is_some() {
                        break;
                    }
                }
            } else {
                read.operands.push(arg);
            }
        }
        read
    }

    /// Whether one of the options is given: a letter of `short` or a name of `long`.
    pub(crate) fn any_of(&self, short: &str, long: &[&str]) -> bool {
        self.options
            .iter()
            .any(|(name, _)| named(name, short, long))
    }

    /// The values of the options named by a letter of `short` or a name of `long`, in order.
    pub(crate) fn values_of<'s>(
        &'s self,
        short: &'s str,
        long: &'s [&str],
    ) -> impl Iterator<Item = &'a str> + 's {
        self.options
            .iter()
            .filter(move |(name, _)| named(name, short, long))
            .filter_map(|(_, value)| *value)
    }

    /// The operands after a program's script or pattern (`sed SCRIPT FILE...`): all of them
    /// when an option of `short` or `long` gives it (`sed -e SCRIPT FILE...`), else all but the
    /// first.
    pub(crate) fn after_script(&self, short: &str, long: &[&str]) -> &[&'a str] {
        if self.any_of(short, long) {
            &self.operands
        } else {
            self.operands.get(1..).unwrap_or_default()
        }
    }

    /// The operands after `--` when there is one, else all of them (git's pathspecs).
    pub(crate) fn pathspecs(&self) -> &[&'a str] {
        &self.operands[self.dashes.unwrap_or(0)..]
    }
}

/// Whether option `name` (`-e`, `--regexp`) is a letter of `short` or a name of `long`.
fn named(name: &str, short: &str, long: &[&str]) -> bool {
    match name.strip_prefix("--") {
        Some(name) => long.contains(&name),
        None => name
            .strip_prefix('-')
            .and_then(|letter| letter.chars().next())
            .is_some_and(|letter| short.contains(letter)),
    }
}

/// Git's global options that take the next word as their value (`git -C dir push`).
const GIT_GLOBAL_VALUED: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--attr-source",
    "--list-cmds",
];

/// A `git` command, its global options read.
#[derive(Debug)]
pub(crate) struct Git<'a> {
    /// The subcommand (`push`).
    pub(crate) subcommand: &'a str,
    /// The arguments after it.
    pub(crate) args: &'a [String],
    /// The folders its `-C` options go to, in order (each relative to the one before).
    pub(crate) folders: Vec<&'a str>,
}

/// `git`'s arguments `args` read: `None` when they name no subcommand.
pub(crate) fn git(args: &[String]) -> Option<Git<'_>> {
    let mut folders = Vec::new();
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        if GIT_GLOBAL_VALUED.contains(&arg.as_str()) {
            if arg == "-C" {
                folders.extend(args.get(index + 1).map(String::as_str));
            }
            index += 2;
        } else if arg.starts_with('-') {
            index += 1;
        } else {
            return Some(Git {
                subcommand: arg,
                args: args.get(index + 1..).unwrap_or_default(),
                folders,
            });
        }
    }
    None
}

/// `find`'s options before its starting folders (`-D` takes a value, `-O3` is one word).
const FIND_LEADING: &[&str] = &["-H", "-L", "-P"];

/// `find`'s arguments `args` read: its starting folders (`.` when none is given) and its
/// expression (the words after them: tests, actions, `-exec` commands).
pub(crate) fn find(args: &[String]) -> (Vec<&str>, &[String]) {
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "-D" => index += 2,
            _ if FIND_LEADING.contains(&arg.as_str()) || arg.starts_with("-O") => index += 1,
            _ => break,
        }
    }
    let rest = args.get(index..).unwrap_or_default();
    let end = rest
        .iter()
        .position(|a| a.starts_with('-') || matches!(a.as_str(), "(" | "!" | ","))
        .unwrap_or(rest.len());
    let starts = match &rest[..end] {
        [] => vec!["."],
        given => given.iter().map(String::as_str).collect(),
    };
    (starts, &rest[end..])
}

#[cfg(test)]
mod tests {
    use super::{Options, find, git};
    use crate::testing::words;

    #[test]
    fn options_with_values_are_not_operands() {
        let args = words("-i.bak -e s/a/b/ -n x y");
        let read = Options::read(&args, "efl", "i", &[]);
        assert_eq!(read.operands, ["x", "y"]);
        assert!(read.any_of("i", &["in-place"]));
        assert_eq!(read.values_of("i", &[]).collect::<Vec<_>>(), [".bak"]);
        let args = words("-fsSLo out --output x u -- -z");
        let read = Options::read(&args, "o", "", &["output"]);
        assert_eq!(read.operands, ["u", "-z"]);
        assert_eq!(read.pathspecs(), ["-z"]);
        assert_eq!(
            read.values_of("o", &["output"]).collect::<Vec<_>>(),
            ["out", "x"]
        );
        assert!(read.any_of("fsS", &[]) && !read.any_of("x", &["x"]));
        let args = words("-n 1p f");
        assert_eq!(
            Options::read(&args, "", "", &[]).after_script("e", &[]),
            ["f"]
        );
    }

    #[test]
    fn git_and_find_arguments_are_read_around_their_options() {
        let args = words("-C a -c x=y --no-pager -C b push -f");
        let read = git(&args).expect("a subcommand");
        assert_eq!((read.subcommand, read.folders), ("push", vec!["a", "b"]));
        assert_eq!(read.args, ["-f"]);
        assert!(git(&words("--version")).is_none());
        let args = words("-L -O3 ~/a b -name x -exec cat {} ;");
        let (starts, expression) = find(&args);
        assert_eq!(starts, ["~/a", "b"]);
        assert_eq!(expression.first().map(String::as_str), Some("-name"));
        assert_eq!(find(&words("-D tree ( -name x )")).0, ["."]);
    }
}

//! The case table of `dangerous-commands`.

use crate::table::{allow, block, unreadable};
use crate::{Case, CaseCall::Bash};

pub(crate) const CASES: &[Case] = &[
    block(Bash("rm -rf ~"), "plain"),
    block(Bash("rm -r -f ~"), "flags split"),
    block(
        Bash("sudo /bin/rm -fr /"),
        "sudo, absolute program, flags merged",
    ),
    block(Bash("bash -c 'rm -rf ~'"), "a bash -c string"),
    allow(Bash("rm -rf ./build"), "inside the project"),
    allow(Bash("ls -la"), "harmless"),
    unreadable(Bash("$RM -rf /"), "a program named by a variable"),
    block(Bash("$RM -rf /"), "unreadable, blocked when asked").with(&["block-unreadable=true"]),
];

#!/bin/sh
# Records every event it sees in ${TMPDIR:-/tmp}/hook-demo.log, one JSON object a line.
# It prints nothing, so it never changes a decision.
{ cat; echo; } >> "${TMPDIR:-/tmp}/hook-demo.log"

#!/bin/sh
# Blocks `rm -rf /` (and `rm -rf /*`) in a shell tool call; every other call goes through.
# Reads the event JSON on stdin. Exit 2 with a reason on stderr blocks in wuu, verboo and lime.
input=$(cat)
if printf '%s' "$input" | grep -Eq 'rm[[:space:]]+-(rf|fr)[[:space:]]+/\*?([[:space:]"]|$)'; then
  echo "blocked by the demo guard: rm -rf / would delete everything" >&2
  exit 2
fi
exit 0

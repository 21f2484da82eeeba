#!/bin/sh
# Adds a line of context for the model at the start of a session (plain text on stdout is
# context on SessionStart in verboo and lime).
cat >/dev/null
echo "This demo project runs its tests with: cargo test --workspace"

#!/usr/bin/env bash
# Regenerates the checked-in shell completions and man page (a test fails when they are stale).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet
bin=target/debug/grounding-audit
$bin completions bash > completions/grounding-audit.bash
$bin completions zsh > completions/_grounding-audit
$bin completions fish > completions/grounding-audit.fish
$bin completions powershell > completions/_grounding-audit.ps1
$bin completions elvish > completions/grounding-audit.elv
$bin man > completions/grounding-audit.1

#!/usr/bin/env bash
# Regenerates the checked-in shell completions and man page (a test fails when they are stale).
#
#   scripts/completions.sh            # a debug build, in CARGO_TARGET_DIR if set
#   PROFILE=ci scripts/completions.sh # the build the tests use (profile `ci`)
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-dev}
cargo build --quiet --profile "$profile" --bin grounding-audit
dir=$profile
[ "$profile" = dev ] && dir=debug
bin=${CARGO_TARGET_DIR:-target}/$dir/grounding-audit
$bin completions bash > completions/grounding-audit.bash
$bin completions zsh > completions/_grounding-audit
$bin completions fish > completions/grounding-audit.fish
$bin completions powershell > completions/_grounding-audit.ps1
$bin completions elvish > completions/grounding-audit.elv
$bin man > completions/grounding-audit.1

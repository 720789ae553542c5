#!/usr/bin/env bash
# Release artefacts for this host: the `dist` profile binary (fat LTO, one
# codegen unit), packed with the completions, the man page, README and
# licence into grounding-audit-VERSION-TARGET.tar.gz with its SHA-256 sum,
# and the Python wheel (maturin, `bindings = "bin"`) of the same build
# (maturin strips the wheel's copy).
#
#   scripts/dist.sh                 # into target/dist-out/
#   DIST_OUT=out PROFILE=release scripts/dist.sh   # a quicker profile, elsewhere
#
# Needs cargo, and maturin for the wheel (`pip install maturin`; without it
# the wheel is left out and the script says so).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-dist}
out=${DIST_OUT:-target/dist-out}
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
target=$(rustc -vV | sed -n 's/^host: //p')
name="grounding-audit-$version-$target"

mkdir -p "$out"
# One build for both: maturin builds the binary (cargo rustc, this
# profile) and packs it into the wheel; the tarball takes the same file.
if command -v maturin >/dev/null 2>&1; then
    echo "== wheel and binary (maturin build --profile $profile, $target)"
    maturin build --locked --profile "$profile" --out "$out" --quiet
    (cd "$out" && for w in grounding_audit-"$version"-*.whl; do sha256sum "$w" >"$w.sha256"; done)
else
    echo "== maturin is not installed (pip install maturin): no wheel" >&2
    echo "== cargo build --profile $profile ($target)"
    cargo build --locked --profile "$profile" -p grounding-audit --bin grounding-audit
fi
dir=$profile
[ "$profile" != dev ] || dir=debug
bin="target/$dir/grounding-audit"

# The checked-in completions and man page must be this binary's.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" man >"$tmp/grounding-audit.1"
cmp -s "$tmp/grounding-audit.1" completions/grounding-audit.1 ||
    { echo "completions/ is stale: run scripts/completions.sh" >&2; exit 1; }

echo "== $out/$name.tar.gz"
stage="$tmp/$name"
mkdir -p "$stage/completions" "$stage/man/man1"
cp "$bin" "$stage/"
cp completions/grounding-audit.bash completions/_grounding-audit completions/grounding-audit.fish \
    completions/grounding-audit.elv completions/_grounding-audit.ps1 "$stage/completions/"
cp completions/grounding-audit.1 "$stage/man/man1/"
cp README.md LICENSE "$stage/"
tar -C "$tmp" --owner=0 --group=0 --numeric-owner --sort=name \
    --mtime="@${SOURCE_DATE_EPOCH:-0}" -czf "$out/$name.tar.gz" "$name"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")

ls -l "$out"

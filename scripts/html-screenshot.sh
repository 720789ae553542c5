#!/usr/bin/env bash
# Regenerates docs/summary-html.png, the picture in docs/summary.md of the
# HTML report of fixtures/demo.jsonl, with headless Chromium (apt-get install
# chromium). docs/ holds the reference and its pictures; the tool never reads
# it (fixtures/ is test input, completions/ is installed).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
SOURCE_DATE_EPOCH=1785000000 target/debug/grounding-audit summary \
    --format html --min-rate 0.8 fixtures/demo.jsonl > "$out/demo.html"
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
# --no-sandbox: CI runs as root; the page is our own and requests nothing.
"$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --host-resolver-rules="MAP * ~NOTFOUND" --force-color-profile=srgb \
    --window-size=1200,2150 --screenshot="$out/shot.png" "file://$out/demo.html" 2>/dev/null
mkdir -p docs
cp "$out/shot.png" docs/summary-html.png
echo "docs/summary-html.png: $(wc -c < docs/summary-html.png) bytes"

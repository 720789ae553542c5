#!/usr/bin/env bash
# The GitHub Action's one script (action.yml runs it; tests/cli/action.rs
# runs it under a simulated Actions environment).
#
#   scripts/action.sh cache-key where the action's own build is cached: outputs
#                               `dir` and `key` (empty when the binary on PATH fits)
#   scripts/action.sh install   find or install grounding-audit; output `bin`,
#                               and `built=true` when it built into the cache
#   scripts/action.sh check     run `check` with --junit, --json, --github;
#                               outputs `decision`, `decision-line`,
#                               `grounded-rate`, `junit-path`; exits with
#                               check's exit code (0 pass, 1 fail, 2-4 error)
#
# Inputs come as environment variables (action.yml maps its inputs):
#   GA_PATHS      files or directories, one per line (on one line: separated by spaces)
#   GA_MIN_RATE, GA_MAX_DROP, GA_BASELINE, GA_POLICY: the flags of that name
#   GA_PER_AGENT  true: --per-agent
#   GA_RATCHET    true: --write-baseline GA_BASELINE --ratchet (the baseline
#                 is read with --max-drop only once it exists)
#   GA_ARGS       further arguments to check, split at white space and line breaks
#   GA_VERSION    a version (pip/cargo), or a path to a wheel; empty: any
#   GA_INSTALL    auto (default: on PATH; else with a version, pip; else the
#                 action's own build, cached), path, pip, cargo
#   GA_CACHE_DIR  where the action's own build lives (the cache-key step's `dir`)
#   GA_BIN        the binary `check` runs (the install step's `bin` output)
# and the runner's GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP,
# RUNNER_TOOL_CACHE and GITHUB_ACTION_PATH (the action's checkout, built
# with `cargo install --path`).
set -uo pipefail

die() {
    echo "::error title=grounding-audit::$*"
    exit 2
}

# Appends name=value to $GITHUB_OUTPUT (a heredoc, so any text is safe).
output() {
    local name=$1 value=$2 delim
    [ -n "${GITHUB_OUTPUT:-}" ] || return 0
    delim="ga_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
    printf '%s<<%s\n%s\n%s\n' "$name" "$delim" "$value" "$delim" >>"$GITHUB_OUTPUT"
}

temp_dir() {
    local base=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
    mkdir -p "$base/grounding-audit" || die "cannot create $base/grounding-audit"
    echo "$base/grounding-audit"
}

# Whether $1 is a grounding-audit of the version asked for (any when none).
fits() {
    local have
    have=$("$1" --version 2>/dev/null) || return 1
    case ${GA_VERSION:-} in
    "" | *.whl) return 0 ;;
    *) [ "$have" = "grounding-audit ${GA_VERSION#v}" ] ;;
    esac
}

install_pip() {
    local venv spec
    venv="$(temp_dir)/venv"
    command -v python3 >/dev/null || return 1
    python3 -m venv "$venv" || return 1
    case ${GA_VERSION:-} in
    "") spec=grounding-audit ;;
    *.whl) spec=$GA_VERSION ;;
    *) spec="grounding-audit==${GA_VERSION#v}" ;;
    esac
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$spec" || return 1
    BIN="$venv/bin/grounding-audit"
}

# The binary on PATH, when it is of the version asked for.
on_path() {
    local found
    found=$(command -v grounding-audit || true)
    [ -n "$found" ] && fits "$found" && echo "$found"
}

# A digest of the sources the action's own build is made from: a new
# commit of the action with the same sources reuses the cached binary.
source_digest() {
    (cd "${GITHUB_ACTION_PATH:?}" &&
        find Cargo.toml Cargo.lock src crates -type f -print0 | LC_ALL=C sort -z |
        xargs -0 sha256sum | sha256sum | cut -c1-16)
}

cmd_cache_key() {
    local how=${GA_INSTALL:-auto} digest base
    case $how in
    auto | cargo) ;;
    *) return 0 ;;
    esac
    [ "$how" = cargo ] || [ -z "$(on_path)" ] || return 0
    digest=$(source_digest) || die "cannot read the action's sources under ${GITHUB_ACTION_PATH:-?}"
    base=${RUNNER_TOOL_CACHE:-${HOME:-/tmp}/.cache}/grounding-audit
    output key "grounding-audit-$(uname -s)-$(uname -m)-$digest"
    output dir "$base/$digest"
}

# The action's own checkout, built once into GA_CACHE_DIR (which the
# action restores from and saves to the Actions cache).
install_cargo() {
    local root=${GA_CACHE_DIR:-$(temp_dir)/cargo}
    if [ -x "$root/bin/grounding-audit" ] && fits "$root/bin/grounding-audit"; then
        echo "the action's build, from the cache: $root"
        BIN="$root/bin/grounding-audit"
        return 0
    fi
    command -v cargo >/dev/null || return 1
    [ -n "${GITHUB_ACTION_PATH:-}" ] || return 1
    echo "building grounding-audit from the action's checkout (once; later runs take it from the cache)"
    cargo install --locked --quiet --root "$root" --path "$GITHUB_ACTION_PATH" || return 1
    BIN="$root/bin/grounding-audit"
    output built true
}

cmd_install() {
    BIN=""
    local how=${GA_INSTALL:-auto}
    case $how in
    auto | path)
        BIN=$(on_path)
        [ -n "$BIN" ] || [ "$how" != path ] ||
            die "install: path, and no grounding-audit${GA_VERSION:+ $GA_VERSION} on PATH"
        ;;
    pip | cargo) ;;
    *) die "install must be auto, path, pip or cargo, not '$how'" ;;
    esac
    # pip only when asked, or for a version: no release is on the package
    # index without one, and trying it would only delay the build.
    if [ -z "$BIN" ] && { [ "$how" = pip ] || { [ "$how" = auto ] && [ -n "${GA_VERSION:-}" ]; }; }; then
        install_pip || BIN=""
        [ -n "$BIN" ] || [ "$how" != pip ] || die "pip install of grounding-audit failed"
    fi
    if [ -z "$BIN" ]; then
        install_cargo || die "could not install grounding-audit (cargo install --locked from the action's checkout)"
    fi
    fits "$BIN" || die "$BIN is not grounding-audit ${GA_VERSION:-}"
    echo "using $BIN ($("$BIN" --version))"
    output bin "$BIN"
}

# The check's arguments from the inputs, into the array ARGS.
check_args() {
    local dir=$1 p extra
    ARGS=(check)
    # One path per line; on a single line, paths separated by spaces.
    local paths=${GA_PATHS:-}
    [[ $paths == *$'\n'* ]] || paths=$(printf '%s' "$paths" | tr ' ' '\n')
    while IFS= read -r p; do
        [ -n "$p" ] && ARGS+=("$p")
    done <<<"$paths"
    [ ${#ARGS[@]} -gt 1 ] || ARGS+=(.)
    [ -z "${GA_MIN_RATE:-}" ] || ARGS+=(--min-rate "$GA_MIN_RATE")
    [ "${GA_PER_AGENT:-false}" != true ] || ARGS+=(--per-agent)
    [ -z "${GA_POLICY:-}" ] || ARGS+=(--policy "$GA_POLICY")
    if [ -n "${GA_BASELINE:-}" ]; then
        if [ "${GA_RATCHET:-false}" != true ] || [ -e "$GA_BASELINE" ]; then
            ARGS+=(--baseline "$GA_BASELINE")
            [ -z "${GA_MAX_DROP:-}" ] || ARGS+=(--max-drop "$GA_MAX_DROP")
        fi
        [ "${GA_RATCHET:-false}" != true ] || ARGS+=(--write-baseline "$GA_BASELINE" --ratchet)
    elif [ "${GA_RATCHET:-false}" = true ]; then
        die "ratchet needs a baseline file"
    fi
    # Every line: `args: |` written one flag per line is the same list.
    read -ra extra -d '' <<<"${GA_ARGS:-}" || true
    ARGS+=("${extra[@]}")
    ARGS+=(--junit "$dir/junit.xml" --json "$dir/check.json" --github)
}

cmd_check() {
    local bin=${GA_BIN:-grounding-audit} dir rc line decision rate before=0
    dir=$(temp_dir)
    [ -z "${GITHUB_STEP_SUMMARY:-}" ] || before=$(wc -c 2>/dev/null <"$GITHUB_STEP_SUMMARY" || echo 0)
    rm -f "$dir/junit.xml" "$dir/check.json"
    check_args "$dir"
    echo "grounding-audit ${ARGS[*]}" >&2
    "$bin" "${ARGS[@]}" >"$dir/stdout" 2>"$dir/stderr"
    rc=$?
    cat "$dir/stdout"
    cat "$dir/stderr" >&2
    line=$(grep -m1 -E '^(PASS|FAIL|ERROR)( |$)' "$dir/stdout" "$dir/stderr" -h || true)
    if [ -z "$line" ]; then
        line="ERROR grounding-audit check exited $rc: $(head -n1 "$dir/stderr")"
    fi
    case $rc in
    0) decision=pass ;;
    1) decision=fail ;;
    *) decision=error ;;
    esac
    rate=""
    if [ -s "$dir/check.json" ]; then
        # The run's rate: `rollup` is the one object at depth 1 that has it.
        rate=$(sed -n 's/^    "grounded_rate": \([0-9.eE+-]*\),\{0,1\}$/\1/p' "$dir/check.json" | head -n1)
    fi
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ] &&
        [ "$(wc -c 2>/dev/null <"$GITHUB_STEP_SUMMARY" || echo 0)" = "$before" ]; then
        # check wrote no summary (a usage error): say why there, as code.
        printf 'grounding-audit check stopped before a decision:\n\n    %s\n\n' "$line" >>"$GITHUB_STEP_SUMMARY"
    fi
    output decision "$decision"
    output decision-line "$line"
    output grounded-rate "$rate"
    if [ -s "$dir/junit.xml" ]; then
        output junit-path "$dir/junit.xml"
    else
        output junit-path ""
    fi
    return "$rc"
}

case ${1:-} in
cache-key) cmd_cache_key ;;
install) cmd_install ;;
check) cmd_check ;;
*)
    echo "usage: $0 cache-key|install|check" >&2
    exit 2
    ;;
esac

//! The GitHub Action (`action.yml`) and its one script, `scripts/action.sh`,
//! run here under a simulated Actions environment (`GITHUB_ACTIONS`,
//! `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, `RUNNER_TEMP`): a passing, a
//! failing and an erroring check, the ratchet, and the install step. The
//! outputs, the step summary and the exit code are asserted against what
//! the tool itself reports.

use crate::common::{fixture, json, run};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("grounding-audit")
}

/// One simulated step: exit code, stdout, outputs, step summary.
struct Step {
    code: i32,
    stdout: String,
    stderr: String,
    outputs: BTreeMap<String, String>,
    summary: String,
}

/// Reads `$GITHUB_OUTPUT` as the runner does: `name=value` lines and
/// `name<<DELIM` … `DELIM` blocks.
fn outputs_of(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some((name, delim)) = line.split_once("<<") {
            let mut value = Vec::new();
            for l in lines.by_ref() {
                if l == delim {
                    break;
                }
                value.push(l);
            }
            out.insert(name.to_owned(), value.join("\n"));
        } else if let Some((name, value)) = line.split_once('=') {
            out.insert(name.to_owned(), value.to_owned());
        }
    }
    out
}

/// Runs `scripts/action.sh STEP` in `dir` with the Actions variables and `env`.
fn step(dir: &Path, which: &str, env: &[(&str, &str)]) -> Step {
    let output = dir.join("github_output");
    let summary = dir.join("step_summary.md");
    let _ = std::fs::remove_file(&output);
    let _ = std::fs::remove_file(&summary);
    let mut cmd = Command::new("bash");
    cmd.arg(root().join("scripts/action.sh"))
        .arg(which)
        .current_dir(dir)
        .env("GITHUB_ACTIONS", "true")
        .env("CI", "true")
        .env("GITHUB_OUTPUT", &output)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("RUNNER_TEMP", dir.join("runner_temp"))
        .env("GITHUB_ACTION_PATH", root())
        .env_remove("NO_COLOR")
        .env_remove("GROUNDING_AUDIT_TZ");
    for k in [
        "GA_PATHS",
        "GA_MIN_RATE",
        "GA_PER_AGENT",
        "GA_BASELINE",
        "GA_MAX_DROP",
        "GA_RATCHET",
        "GA_POLICY",
        "GA_ARGS",
        "GA_VERSION",
        "GA_INSTALL",
        "GA_CACHE_DIR",
        "GA_BIN",
    ] {
        cmd.env_remove(k);
    }
    cmd.env("GA_BIN", binary());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("bash runs");
    Step {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        outputs: outputs_of(&std::fs::read_to_string(&output).unwrap_or_default()),
        summary: std::fs::read_to_string(&summary).unwrap_or_default(),
    }
}

fn demo() -> String {
    fixture("demo.jsonl").to_str().unwrap().to_owned()
}

/// The demo's grounded rate as `check --format json` prints it.
fn demo_rate() -> String {
    let (_, out, _) = run(&["check", "--min-rate", "0", "--format", "json", &demo()]);
    json(&out)["rollup"]["grounded_rate"].to_string()
}

#[test]
fn a_passing_check_sets_its_outputs_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let s = step(
        dir.path(),
        "check",
        &[("GA_PATHS", &demo()), ("GA_MIN_RATE", "0.6")],
    );
    assert_eq!(s.code, 0, "{}{}", s.stdout, s.stderr);
    assert_eq!(s.outputs["decision"], "pass");
    assert!(
        s.outputs["decision-line"].starts_with("PASS "),
        "{:?}",
        s.outputs
    );
    assert!(s.stdout.contains(&s.outputs["decision-line"]));
    assert_eq!(s.outputs["grounded-rate"], demo_rate());
    let junit = std::fs::read_to_string(&s.outputs["junit-path"]).unwrap();
    assert!(junit.contains("<testsuites") && junit.contains("min_rate"));
    assert!(junit.contains("failures=\"0\""), "{junit}");
    assert!(s.summary.contains("PASS") && s.summary.contains("| scope |"));
}

#[test]
fn a_failing_check_fails_the_step_and_names_the_agent() {
    let dir = tempfile::tempdir().unwrap();
    let s = step(
        dir.path(),
        "check",
        &[
            ("GA_PATHS", &demo()),
            ("GA_MIN_RATE", "0.6"),
            ("GA_PER_AGENT", "true"),
        ],
    );
    assert_eq!(s.code, 1, "{}{}", s.stdout, s.stderr);
    assert_eq!(s.outputs["decision"], "fail");
    let (code, text, _) = run(&["check", "--min-rate", "0.6", "--per-agent", &demo()]);
    assert_eq!(code, 1);
    assert_eq!(s.outputs["decision-line"], text.lines().next().unwrap());
    assert!(s.outputs["decision-line"].contains("support-bot"));
    assert_eq!(s.outputs["grounded-rate"], demo_rate());
    assert!(
        s.stdout
            .contains("::error title=grounding-audit min_rate::")
    );
    assert!(s.summary.contains("FAIL") && s.summary.contains("support-bot"));
    let junit = std::fs::read_to_string(&s.outputs["junit-path"]).unwrap();
    assert!(junit.contains("<failure"), "{junit}");
}

#[test]
fn an_error_fails_the_step_with_decision_error() {
    let dir = tempfile::tempdir().unwrap();
    // A baseline that is not there: check decides ERROR, exit 3, and still
    // writes its reports.
    let s = step(
        dir.path(),
        "check",
        &[
            ("GA_PATHS", &demo()),
            ("GA_BASELINE", "missing-baseline.json"),
            ("GA_MAX_DROP", "0.05"),
        ],
    );
    assert_eq!(s.code, 3, "{}{}", s.stdout, s.stderr);
    assert_eq!(s.outputs["decision"], "error");
    assert!(
        s.outputs["decision-line"].starts_with("ERROR --baseline"),
        "{:?}",
        s.outputs
    );
    assert!(s.summary.contains("ERROR"), "{}", s.summary);
    // No gate at all: a usage error (exit 2) before any report; the
    // summary says why.
    let s = step(dir.path(), "check", &[("GA_PATHS", &demo())]);
    assert_eq!(s.code, 2, "{}{}", s.stdout, s.stderr);
    assert_eq!(s.outputs["decision"], "error");
    assert!(s.outputs["decision-line"].contains("no gate given"));
    assert_eq!(s.outputs["junit-path"], "");
    assert_eq!(s.outputs["grounded-rate"], "");
    assert!(s.summary.contains("no gate given"), "{}", s.summary);
    // An unreadable input: exit 3.
    let s = step(
        dir.path(),
        "check",
        &[("GA_PATHS", "no/such/logs"), ("GA_MIN_RATE", "0.5")],
    );
    assert_eq!(s.code, 3, "{}{}", s.stdout, s.stderr);
    assert_eq!(s.outputs["decision"], "error");
}

/// Paths one per line (a path with a space included), extra arguments
/// split at white space.
#[test]
fn paths_and_extra_arguments_reach_check() {
    let dir = tempfile::tempdir().unwrap();
    let spaced = dir.path().join("eval logs").join("demo log.jsonl");
    std::fs::create_dir_all(spaced.parent().unwrap()).unwrap();
    std::fs::copy(demo(), &spaced).unwrap();
    let paths = format!(
        "{}\n{}\n",
        spaced.display(),
        fixture("rules.jsonl").display()
    );
    let s = step(
        dir.path(),
        "check",
        &[
            ("GA_PATHS", &paths),
            ("GA_MIN_RATE", "0"),
            ("GA_ARGS", "--max-orphans 0   --min-turns 1"),
        ],
    );
    assert_eq!(s.code, 1, "{}{}", s.stdout, s.stderr);
    assert!(s.stdout.contains("max_orphans"), "{}", s.stdout);
    assert!(s.stdout.contains("2 file(s)"), "{}", s.stdout);
}

/// `args: |` with one flag per line: every line reaches check, so the
/// gate on the second line still fails the run.
#[test]
fn extra_arguments_one_per_line_all_reach_check() {
    let dir = tempfile::tempdir().unwrap();
    let s = step(
        dir.path(),
        "check",
        &[
            ("GA_PATHS", &demo()),
            ("GA_MIN_RATE", "0"),
            ("GA_ARGS", "--min-turns 1\n--max-orphans 0\n"),
        ],
    );
    assert_eq!(s.code, 1, "{}{}", s.stdout, s.stderr);
    assert!(s.stdout.contains("max_orphans"), "{}", s.stdout);
}

/// With `ratchet`, the first passing run starts the baseline; the next run
/// gates on the drop against it.
#[test]
fn the_ratchet_starts_and_then_uses_the_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let env = [
        ("GA_PATHS", demo()),
        ("GA_MIN_RATE", "0.6".to_owned()),
        ("GA_BASELINE", "baseline.json".to_owned()),
        ("GA_MAX_DROP", "0.05".to_owned()),
        ("GA_RATCHET", "true".to_owned()),
    ];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let s = step(dir.path(), "check", &env);
    assert_eq!(s.code, 0, "{}{}", s.stdout, s.stderr);
    assert!(dir.path().join("baseline.json").is_file());
    let s = step(dir.path(), "check", &env);
    assert_eq!(s.code, 0, "{}{}", s.stdout, s.stderr);
    assert!(s.stdout.contains("max_drop"), "{}", s.stdout);
}

/// The install step finds the binary on PATH, refuses a wrong version, and
/// refuses an unknown method.
#[test]
fn install_uses_the_binary_on_path_of_the_version_asked() {
    let dir = tempfile::tempdir().unwrap();
    let path = format!(
        "{}:{}",
        binary().parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let version = env!("CARGO_PKG_VERSION");
    let s = step(
        dir.path(),
        "install",
        &[
            ("PATH", &path),
            ("GA_INSTALL", "path"),
            ("GA_VERSION", version),
        ],
    );
    assert_eq!(s.code, 0, "{}{}", s.stdout, s.stderr);
    assert_eq!(Path::new(&s.outputs["bin"]), binary());
    let s = step(
        dir.path(),
        "install",
        &[
            ("PATH", &path),
            ("GA_INSTALL", "path"),
            ("GA_VERSION", "0.0.0-none"),
        ],
    );
    assert_eq!(s.code, 2, "{}{}", s.stdout, s.stderr);
    assert!(s.stdout.contains("::error"), "{}", s.stdout);
    assert!(!s.outputs.contains_key("bin"));
    let s = step(dir.path(), "install", &[("GA_INSTALL", "brew")]);
    assert_eq!(s.code, 2);
}

/// With nothing on PATH and no version asked, the action builds its own
/// checkout once into the cache directory the cache-key step names, and a
/// later run takes the binary from there without building: `cargo` is a
/// stand-in here that records each call and installs this build.
#[test]
fn install_builds_the_actions_checkout_once_and_then_uses_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fakebin");
    std::fs::create_dir_all(&fake).unwrap();
    let calls = dir.path().join("cargo-calls");
    let script = format!(
        "#!/bin/sh\necho \"$*\" >>'{}'\nwhile [ $# -gt 0 ]; do [ \"$1\" = --root ] && root=$2; shift; done\n\
         mkdir -p \"$root/bin\" && cp '{}' \"$root/bin/grounding-audit\"\n",
        calls.display(),
        binary().display()
    );
    let cargo = fake.join("cargo");
    std::fs::write(&cargo, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", fake.display());
    let tool_cache = dir.path().join("tool_cache");
    let tool_cache = tool_cache.to_str().unwrap();
    let key = step(
        dir.path(),
        "cache-key",
        &[("PATH", &path), ("RUNNER_TOOL_CACHE", tool_cache)],
    );
    assert_eq!(key.code, 0, "{}{}", key.stdout, key.stderr);
    assert!(
        key.outputs["key"].starts_with("grounding-audit-"),
        "{:?}",
        key.outputs
    );
    let cache = key.outputs["dir"].clone();
    assert!(cache.starts_with(tool_cache), "{cache}");
    let env = [("PATH", path.as_str()), ("GA_CACHE_DIR", cache.as_str())];
    let first = step(dir.path(), "install", &env);
    assert_eq!(first.code, 0, "{}{}", first.stdout, first.stderr);
    assert_eq!(first.outputs.get("built").map(String::as_str), Some("true"));
    assert_eq!(
        Path::new(&first.outputs["bin"]),
        Path::new(&cache).join("bin/grounding-audit")
    );
    let second = step(dir.path(), "install", &env);
    assert_eq!(second.code, 0, "{}{}", second.stdout, second.stderr);
    assert_eq!(second.outputs["bin"], first.outputs["bin"]);
    assert!(
        !second.outputs.contains_key("built"),
        "{:?}",
        second.outputs
    );
    let log = std::fs::read_to_string(&calls).unwrap();
    assert_eq!(log.lines().count(), 1, "{log}");
    assert!(log.contains("install --locked"), "{log}");
    // The same sources give the same key; a binary on PATH needs no cache.
    let again = step(
        dir.path(),
        "cache-key",
        &[("PATH", &path), ("RUNNER_TOOL_CACHE", tool_cache)],
    );
    assert_eq!(again.outputs["key"], key.outputs["key"]);
    let on_path = format!("{}:{path}", binary().parent().unwrap().display());
    let none = step(dir.path(), "cache-key", &[("PATH", &on_path)]);
    assert!(!none.outputs.contains_key("key"), "{:?}", none.outputs);
}

/// Every input of action.yml reaches the script as a GA_ variable the
/// script reads, and every output the script sets is one action.yml
/// declares.
#[test]
fn action_yml_and_the_script_agree() {
    let yml = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let script = std::fs::read_to_string(root().join("scripts/action.sh")).unwrap();
    assert!(yml.contains("using: composite"));
    for input in [
        "paths",
        "min-rate",
        "per-agent",
        "baseline",
        "max-drop",
        "ratchet",
        "policy",
        "args",
        "version",
        "install",
    ] {
        let var = format!("GA_{}", input.to_uppercase().replace('-', "_"));
        assert!(
            yml.contains(&format!("  {input}:\n")),
            "input {input} not declared"
        );
        assert!(
            yml.contains(&format!("{var}: ${{{{ inputs.{input} }}}}")),
            "{var} not mapped from inputs.{input}"
        );
        assert!(script.contains(&format!("${{{var}")), "{var} not read");
    }
    for output in ["decision", "decision-line", "grounded-rate", "junit-path"] {
        assert!(
            yml.contains(&format!("value: ${{{{ steps.check.outputs.{output} }}}}")),
            "{output}"
        );
        assert!(script.contains(&format!("output {output} ")), "{output}");
    }
    for (step, output) in [
        ("cache-key", "key"),
        ("cache-key", "dir"),
        ("install", "built"),
    ] {
        assert!(
            yml.contains(&format!("steps.{step}.outputs.{output}")),
            "{step}.{output}"
        );
        assert!(script.contains(&format!("output {output} ")), "{output}");
    }
}

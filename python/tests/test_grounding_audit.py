"""Tests of the grounding_audit module against the installed wheel's binary
(`.ci/run` installs the wheel into a fresh virtual environment and runs
these there; `GROUNDING_AUDIT_BIN` points them at another binary)."""

import json
import os
import subprocess
import sys
import sysconfig
from importlib.metadata import version
from pathlib import Path

import pytest

import grounding_audit as ga

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures" / "demo.jsonl"


def cli_json(*args):
    """The binary's own JSON for `args`, to compare the module with."""
    out = subprocess.run([ga.find_binary(), *args], capture_output=True, text=True)
    return json.loads(out.stdout)


def test_argv_spells_options_as_the_cli_flags():
    assert ga.argv("check", "logs/", min_rate=0.9, per_agent=True) == [
        "check",
        "--min-rate",
        "0.9",
        "--per-agent",
        "--",
        "logs/",
    ]
    assert ga.argv(
        "summary", [Path("a.jsonl"), "b.jsonl"], set=["x=/a", "y=/b"], strict=False, tz=None
    ) == ["summary", "--set", "x=/a", "--set", "y=/b", "--", "a.jsonl", "b.jsonl"]
    # A trailing underscore spells a flag that is a Python keyword.
    assert ga.argv("report", "l", from_="2026-08-01") == ["report", "--from", "2026-08-01", "--", "l"]


def test_a_path_is_never_a_flag(tmp_path):
    target = tmp_path / "overwritten.html"
    target.write_text("keep")
    with pytest.raises(ga.GroundingAuditError) as e:
        ga.summary([DEMO, f"--html={target}"])
    assert e.value.exit_code == 3, e.value.stderr
    assert target.read_text() == "keep"
    # A gate cannot be relaxed through a path either: it is a file that
    # cannot be read, and check fails on it.
    result = ga.check([DEMO, "--max-invalid=100000000"], min_rate=0.1)
    assert not result.passed and result.exit_code == 3


def test_no_path_is_refused():
    with pytest.raises(ValueError):
        ga.summary([])
    with pytest.raises(ValueError):
        ga.check([], min_rate=0.5)


def test_the_tools_notes_are_python_warnings():
    with pytest.warns(ga.GroundingAuditWarning, match="no turn"):
        doc = ga.summary(DEMO, since="1h", now="2030-01-01T00:00:00Z")
    assert doc["totals"]["turns"] == 0


def test_the_binary_is_the_wheels_and_of_its_version():
    binary = Path(ga.find_binary())
    assert binary.is_file()
    if "GROUNDING_AUDIT_BIN" not in os.environ:
        assert binary.parent == Path(sysconfig.get_path("scripts")), binary
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True)
    assert out.stdout.strip() == "grounding-audit " + version("grounding-audit")


def test_summary_is_the_cli_document():
    doc = ga.summary(DEMO)
    assert doc == cli_json("summary", "--format", "json", str(DEMO))
    totals = doc["totals"]
    assert totals["turns"] == sum(g["turns"] for g in doc["groups"]) > 0
    assert totals["grounded_rate"] == totals["verdicts"]["ok"] / totals["with_retrieval"]


def test_summary_takes_options_and_several_paths():
    one = ga.summary(DEMO)
    two = ga.summary([DEMO, DEMO], by="channel")
    assert two["group_by"] == "channel"
    # The same turns twice are de-duplicated: the counts do not double.
    assert two["totals"]["turns"] == one["totals"]["turns"]
    assert two["input"]["files"] == 2


def test_report_all_rows():
    doc = ga.report(DEMO, all=True)
    rows = doc["rows"]
    assert len(rows) == ga.summary(DEMO)["totals"]["turns"]
    assert {r["verdict"] for r in rows} <= {
        "ok",
        "no_marker",
        "orphan_marker",
        "empty_retrieval",
        "unobserved",
    }
    page = ga.report(DEMO, limit=5)
    assert len(page["rows"]) == 5


def test_check_pass_and_fail():
    rate = ga.summary(DEMO)["totals"]["grounded_rate"]
    passed = ga.check(DEMO, min_rate=round(rate - 0.05, 2))
    assert passed.passed and passed
    assert passed.exit_code == 0
    assert passed.decision.startswith("PASS ")
    assert passed.grounded_rate == rate
    failed = ga.check(DEMO, min_rate=round(rate + 0.05, 2))
    assert not failed.passed and not failed
    assert failed.exit_code == 1
    assert failed.decision.startswith("FAIL ")
    assert failed.document["decision"] == "fail"
    assert failed.document["line"] == failed.decision


def test_check_per_agent_names_the_failing_agent():
    result = ga.check(DEMO, min_rate=0.6, per_agent=True)
    assert not result.passed
    failing = [g["agent"] for g in result.document["gates"] if g["outcome"] == "fail"]
    assert failing and all(a in result.decision for a in failing)


def test_check_error_decision_is_a_result(tmp_path):
    result = ga.check(DEMO, baseline=tmp_path / "missing.json", max_drop=0.05)
    assert not result.passed
    assert result.exit_code == 3
    assert result.decision.startswith("ERROR --baseline")


def test_usage_errors_raise():
    with pytest.raises(ga.GroundingAuditError) as e:
        ga.check(DEMO)  # no gate
    assert e.value.exit_code == 2
    assert "no gate given" in e.value.stderr
    with pytest.raises(ga.GroundingAuditError) as e:
        ga.summary(DEMO, no_such_flag=1)
    assert e.value.exit_code == 2
    with pytest.raises(ga.GroundingAuditError) as e:
        ga.summary(ROOT / "no" / "such.jsonl")
    assert e.value.exit_code == 3
    with pytest.raises(TypeError):
        ga.summary(DEMO, format="csv")


def test_python_dash_m_runs_the_binary():
    out = subprocess.run(
        [sys.executable, "-m", "grounding_audit", "summary", "--format", "json", str(DEMO)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == ga.summary(DEMO)

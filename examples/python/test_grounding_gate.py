"""A grounding gate as a pytest test: put a file like this beside your
agent's tests, point it at the logs your evaluation run wrote, and the
suite fails when answers stop standing on what retrieval returned.

    pip install grounding-audit pytest
    pytest examples/python/test_grounding_gate.py
"""

from pathlib import Path

import grounding_audit

# Your evaluation run's logs; here the repository's demo log.
LOGS = Path(__file__).resolve().parents[2] / "fixtures" / "demo.jsonl"


def test_answers_are_grounded():
    result = grounding_audit.check(LOGS, min_rate=0.6, max_orphans=5)
    assert result.passed, result.decision


def test_every_agent_clears_its_own_bar():
    # The demo's support-bot grounds 3 of 6 answers: held to 0.6 per agent,
    # the gate fails and the decision line names it.
    result = grounding_audit.check(LOGS, min_rate=0.6, per_agent=True)
    assert not result.passed
    assert "support-bot" in result.decision


def test_no_invented_citation_from_the_billing_bot():
    summary = grounding_audit.summary(LOGS)
    billing = next(g for g in summary["groups"] if g["key"] == "billing-bot")
    # The demo has two; a real suite would assert == 0.
    assert billing["verdicts"]["orphan_marker"] <= 2

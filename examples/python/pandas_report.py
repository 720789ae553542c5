# %% [markdown]
# # Graded turns in pandas
#
# Notebook-style: each `# %%` cell runs in Jupyter, VS Code or as a plain
# script (`python examples/python/pandas_report.py`). It loads every graded
# turn (`report --all --format json`) into a DataFrame and rolls it up by
# agent and day, the way `summary` does.

# %%
import os
import sys
from pathlib import Path

import grounding_audit

try:
    import pandas as pd
except ImportError:
    if os.environ.get("GROUNDING_AUDIT_REQUIRE_PANDAS"):
        raise
    print("SKIPPED: pandas is not installed (pip install pandas); this example needs it")
    sys.exit(0)

LOGS = Path(__file__).resolve().parents[2] / "fixtures" / "demo.jsonl"

# %%
doc = grounding_audit.report(LOGS, all=True)
turns = pd.DataFrame(doc["rows"])
turns["created_at"] = pd.to_datetime(turns["created_at"])
turns["day"] = turns["created_at"].dt.date
turns[["turn_id", "agent_id", "verdict", "confidence", "chunk_count"]].head()

# %%
# The grounded rate per agent: ok over turns with chunks and an answer.
answered = turns[turns["verdict"].isin(["ok", "no_marker", "orphan_marker"]) & (turns["chunk_count"] > 0)]
per_agent = answered.groupby("agent_id")["verdict"].apply(lambda v: (v == "ok").mean())
print(per_agent.rename("grounded_rate").to_string())

# %%
# Verdicts per agent and day.
table = turns.pivot_table(index=["agent_id", "day"], columns="verdict", values="turn_id", aggfunc="count", fill_value=0)
print(table.to_string())

# %%
# The same figures as the tool's own rollup.
summary = grounding_audit.summary(LOGS)
for group in summary["groups"]:
    assert group["turns"] == int((turns["agent_id"] == group["key"]).sum())
    if group["grounded_rate"] is not None:
        assert abs(per_agent[group["key"]] - group["grounded_rate"]) < 1e-12, group["key"]
print("pandas and grounding-audit summary agree on", len(summary["groups"]), "agents")

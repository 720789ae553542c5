# Verdict counts of a turn log with the rules of issue 2 and the default `kb`
# marker grammar, for scripts/bench.sh. Run as: jq -n -c -f bench-verdicts.jq < log.jsonl
# Each line is one program evaluation (streamed with `inputs`, never slurped).

# Well-formed markers: `[KB-N]` in the reply (decoded by jq); without a reply,
# the integer `index` of each element of grounding.citations; null when no
# answer was observed.
def markers:
  if (.reply | type) == "string" then
    [.reply | scan("\\[KB-([0-9]+)\\]") | .[0] | tonumber]
  elif ((.grounding.citations | type) == "array") then
    [.grounding.citations[] | .index | select(type == "number" and . == floor)]
  else null end;

def verdict:
  ((.grounding.chunks // []) | length) as $n
  | markers as $m
  | if $m == null then "unobserved"
    else ([$m[] | select(. >= 1 and . <= $n)] | length) as $in
    | if ($m | length) > 0 and ($n == 0 or $in == 0) then "orphan_marker"
      elif $n > 0 and $in > 0 then "ok"
      elif $n > 0 then "no_marker"
      else "empty_retrieval" end
    end;

reduce (inputs | select(.type == null or .type == "turn") | verdict) as $v
  ({"ok": 0, "no_marker": 0, "orphan_marker": 0, "empty_retrieval": 0, "unobserved": 0}; .[$v] += 1)

# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_grounding_audit_global_optspecs
    string join \n q/quiet threads= color= h/help V/version
end

function __fish_grounding_audit_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_grounding_audit_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_grounding_audit_using_subcommand
    set -l cmd (__fish_grounding_audit_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -s V -l version -d 'Print version'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "report" -d 'Grade turns and list them one page at a time, newest first'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "summary" -d 'Roll up every matching turn: totals, per agent, daily trend, triage list'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "check" -d 'Gate a CI pipeline on the grounded rate (exit 1 when a gate fails)'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "explain" -d 'Show one turn\'s full audit: chunks, markers, tools, telemetry'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "evidence" -d 'Print one JSON evidence record per turn (free text only with --show-text)'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "convert" -d 'Convert any log to the native turn log, or write verdicts back as OTel evaluation events, Phoenix span annotations, Langfuse scores or LangSmith feedback'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "inspect" -d 'Say what a file is before grading it: format, field coverage, the map that reads it (try one with --map, --set, --map-file), marker grammar, and a command line that grades it'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "man" -d 'Print the man page (roff; e.g. `grounding-audit man > ~/.local/share/man/man1/grounding-audit.1`)'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "merge" -d 'Render summary, report or check from partials (`--partial`), as one pass over all their input'
complete -c grounding-audit -n "__fish_grounding_audit_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l verdict -d 'Only turns with this verdict (repeatable)' -r -f -a "ok\t'Retrieval ran and the reply cites at least one retrieved chunk'
no_marker\t'Retrieval ran but the reply carries no well-formed marker'
orphan_marker\t'Markers that point at nothing: no retrieval, or every marker out of range'
empty_retrieval\t'No retrieval and no marker (small talk, greetings)'
unobserved\t'No answer was observed for the turn'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l limit -d 'Rows per page (1-200)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l cursor -d 'Continue after the last row of a previous page (from its next_cursor)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l format -d 'Output format' -r -f -a "table\t'A table for the terminal, with the page summary; the next-page hint goes to stderr'
csv\t'One row per line, fixed columns, list fields joined with `;`'
json\t'One document: rows, summary, next_cursor, input'
jsonl\t'One JSON row per line'
markdown\t'A Markdown table for tickets and pull requests'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l columns -d 'Table, Markdown and CSV columns, in this order (comma-separated; names as in the JSON row, see docs/report.md)' -r -f -a "turn_id\t''
agent_id\t''
conversation_id\t''
channel\t''
created_at\t''
verdict\t''
partial\t''
cited_chunks\t''
marker_count\t''
out_of_range_markers\t''
malformed_markers\t''
markers_from\t''
chunk_count\t''
confidence\t''
document_ids\t''
chunk_ids\t''
scores\t''
tool_calls\t''
tool_errors\t''
model\t''
tokens_used\t''
cost_cents\t''
latency_ms\t''
unobserved_reason\t''
sentences\t''
cited_sentences\t''
coverage\t''
quotes_exact\t''
quotes_normalised\t''
quotes_absent\t''
offsets_mismatched\t''
hints\t''
unchecked\t''
cited_documents\t''
quotes_misattributed\t''
quotes_stitched\t''
quotes_fabricated\t''
evidence\t''"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l partial -d 'Instead of rendering, write the page\'s complete mergeable state (a versioned JSON partial; `-` for stdout) for `grounding-audit merge`' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l max-line-bytes -d 'Lines longer than this are invalid lines (not read into memory)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l max-document-bytes -d 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l input-format -d 'Input dialect; `auto` decides per file from its first bytes' -r -f -a "auto\t'Decide per file from its first bytes'
agentfootprint\t'agentfootprint event streams, recordings and audit bundles'
otlp\t'OTLP/JSON trace requests (Collector or SDK file exporter)'
phoenix-otlp\t'Phoenix OTLP-JSON download (snake_case OTLP)'
datadog\t'Datadog APM traces (an array of traces, each an array of spans with meta and metrics)'
phoenix-dataframe\t'Phoenix get_spans_dataframe() rows as JSON'
phoenix-jsonl\t'Phoenix spans (JSONL download or REST page)'
trulens-events\t'TruLens OTel event rows (record, record_attributes)'
otel-sdk-json\t'OpenTelemetry SDK span objects (Python span.to_json(), JS ReadableSpan), lines or an array'
langsmith\t'LangSmith runs: list_runs() dumps (JSONL or a JSON array)'
langfuse\t'Langfuse observations: blob-storage export (observations_v2, legacy traces/observations) or UI JSON export'
exchange\t'Recorded provider API calls (request and response), graded by their structured citations'
adk\t'Google ADK Session JSON (one turn per invocation) or EvalSet JSON (expected turns, not observed ones)'
braintrust\t'Braintrust log rows (start and merge rows by span id; one turn per root span), /logs3 bodies or recordings of them'
turns\t'The native turn log: one JSON turn per line'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l retrievals -d 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call\'s input (else the last retrieval), the last one before the answer, or all of them in start order' -r -f -a "prompt\t'The retrieved documents whose text is in the answering LLM call\'s recorded input, in that order; where none is (or the input was not recorded), the last retrieval'
last\t'The last retrieval that finished before the answer started (what the model answered from)'
all\t'Every retrieval before the answer, in start order (sources numbered across searches)'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l assembly-window -d 'Records (spans, events) read without one of a trace\'s or run\'s own before it is assembled; bounds memory by the traces still open' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l agent-name -d 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l map -d 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l set -d 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l map-file -d 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l from -d 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l to -d 'Only turns before this time (exclusive; same forms as --from)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l since -d 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l now -d 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l agent -d 'Only this agent (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l channel -d 'Only this channel, e.g. chat or voice (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l model -d 'Only turns answered by this model (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l turn -d 'Only this turn (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l conversation -d 'Only turns of this conversation (repeatable); report lists them oldest first' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l grep -d 'Only turns whose reply text matches this regex (the text is still not printed without --show-text). Smart case, as ripgrep: a pattern without an upper-case letter ignores case (refund finds Refunds); one with an upper-case letter, or --case-sensitive, does not' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l cited-below -d 'Only turns citing a chunk whose score is under S' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l confidence-below -d 'Only turns whose confidence is under S (turns without scores never are)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l tz -d 'Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l show-tz -d 'How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc' -r -f -a "local\t'In the --tz zone, with its offset'
utc\t'In UTC, with `Z`'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l markers -d 'Marker grammar (default kb; id for agentfootprint input)' -r -f -a "kb\t'`[KB-N]`, 1-based; a bracket starting with `KB` in any case that is not exactly that is malformed'
numeric\t'`[3]`, `[1, 2]`, `[1-3]`, `[2 and 3]`: whole numbers, lists and ranges, 1-based'
doc\t'`[docN]`, 1-based (Azure "on your data" style)'
footnote\t'`[^N]`, 1-based footnotes'
id\t'`[chunk-or-document-id]`: names a chunk of the turn by id'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l marker-regex -d 'A custom marker regex with exactly one capture group holding the chunk index' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l marker-base -d 'Index base of --marker-regex captures' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l would-block -d 'Only turns a require_citation guardrail (the Orbit agent platform\'s safety setting) would refuse: retrieval and no well-formed marker of the grammar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l all -d 'Every matching row in input order, streamed, with the summary over all of them'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l csv-raw -d 'CSV: write values as they are, without neutralising leading = + - @'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l strict -d 'Make the first invalid line fatal (exit 3)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -l no-dedupe -d 'Keep repeated turn ids instead of counting them as duplicates'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -s s -l case-sensitive -d 'Match --grep with case, even for an all-lower-case pattern'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand report" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l by -d 'Breakdown key' -r -f -a "agent\t''
channel\t''
model\t''"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l triage -d 'Ungrounded turns to list (0 turns the list off)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l triage-order -d 'Order of the triage list: by severity (invented citations, then missing markers on confident retrieval, then the rest; a group in a significant drop first within each; then newest), or newest first' -r -f -a "severity\t'Invented citations first, then missing markers on confident retrieval, then the rest; within each, turns of a group with a significant drop first; then newest first'
recent\t'Newest first, whatever the verdict'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l low-score -d 'Citations of chunks scoring below this count as low-confidence citations' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l bucket -d 'Trend bucket width (at the --tz offset)' -r -f -a "hour\t'One row per hour'
day\t'One row per day'
week\t'One row per ISO week (Monday to Sunday), labelled like 2026-W31'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l compare -d 'Compare with a baseline: a saved `summary --format json` document' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l compare-from -d 'Compare with the turns of the same logs from this time (the baseline window; with --compare-to)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l compare-to -d 'End of the baseline window (exclusive)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l confidence -d 'Confidence of the comparison\'s intervals' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l format -d 'Output format' -r -f -a "table\t'Tables for the terminal, with a trend bar per day'
json\t'One document with a key per section'
markdown\t'Markdown tables'
csv\t'One section as CSV (see --section)'
html\t'One self-contained HTML page with charts (no network, works without JavaScript)'
prometheus\t'Metrics in the Prometheus text format (textfile collector, Pushgateway)'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l section -d 'With --format csv: which table (default groups)' -r -f -a "groups\t''
days\t'The trend, one row per bucket (--bucket; days by default)'
group-days\t'The trend per group: one row per group and bucket'
triage\t''
guardrail\t'What require_citation would refuse, per group'
scores\t'Chunk scores of cited and uncited chunks per group, in 20 bins over [0, 1]'
compare\t'The comparison with the baseline (--compare, --compare-from/--compare-to, --compare-previous)'
evidence\t'Evidence completeness per group and bucket: turns whose retrieved documents are in the export, and why the rest are not'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l html -d 'Also write the HTML report to FILE, in the same pass as --format' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l min-rate -d 'The HTML report marks this grounded rate (0..1) as the threshold on its trend' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l partial -d 'Instead of rendering, write the run\'s complete mergeable state (a versioned JSON partial; `-` for stdout) for `grounding-audit merge`' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l max-line-bytes -d 'Lines longer than this are invalid lines (not read into memory)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l max-document-bytes -d 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l input-format -d 'Input dialect; `auto` decides per file from its first bytes' -r -f -a "auto\t'Decide per file from its first bytes'
agentfootprint\t'agentfootprint event streams, recordings and audit bundles'
otlp\t'OTLP/JSON trace requests (Collector or SDK file exporter)'
phoenix-otlp\t'Phoenix OTLP-JSON download (snake_case OTLP)'
datadog\t'Datadog APM traces (an array of traces, each an array of spans with meta and metrics)'
phoenix-dataframe\t'Phoenix get_spans_dataframe() rows as JSON'
phoenix-jsonl\t'Phoenix spans (JSONL download or REST page)'
trulens-events\t'TruLens OTel event rows (record, record_attributes)'
otel-sdk-json\t'OpenTelemetry SDK span objects (Python span.to_json(), JS ReadableSpan), lines or an array'
langsmith\t'LangSmith runs: list_runs() dumps (JSONL or a JSON array)'
langfuse\t'Langfuse observations: blob-storage export (observations_v2, legacy traces/observations) or UI JSON export'
exchange\t'Recorded provider API calls (request and response), graded by their structured citations'
adk\t'Google ADK Session JSON (one turn per invocation) or EvalSet JSON (expected turns, not observed ones)'
braintrust\t'Braintrust log rows (start and merge rows by span id; one turn per root span), /logs3 bodies or recordings of them'
turns\t'The native turn log: one JSON turn per line'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l retrievals -d 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call\'s input (else the last retrieval), the last one before the answer, or all of them in start order' -r -f -a "prompt\t'The retrieved documents whose text is in the answering LLM call\'s recorded input, in that order; where none is (or the input was not recorded), the last retrieval'
last\t'The last retrieval that finished before the answer started (what the model answered from)'
all\t'Every retrieval before the answer, in start order (sources numbered across searches)'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l assembly-window -d 'Records (spans, events) read without one of a trace\'s or run\'s own before it is assembled; bounds memory by the traces still open' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l agent-name -d 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l map -d 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l set -d 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l map-file -d 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l from -d 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l to -d 'Only turns before this time (exclusive; same forms as --from)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l since -d 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l now -d 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l agent -d 'Only this agent (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l channel -d 'Only this channel, e.g. chat or voice (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l model -d 'Only turns answered by this model (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l turn -d 'Only this turn (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l conversation -d 'Only turns of this conversation (repeatable); report lists them oldest first' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l grep -d 'Only turns whose reply text matches this regex (the text is still not printed without --show-text). Smart case, as ripgrep: a pattern without an upper-case letter ignores case (refund finds Refunds); one with an upper-case letter, or --case-sensitive, does not' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l cited-below -d 'Only turns citing a chunk whose score is under S' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l confidence-below -d 'Only turns whose confidence is under S (turns without scores never are)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l tz -d 'Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l show-tz -d 'How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc' -r -f -a "local\t'In the --tz zone, with its offset'
utc\t'In UTC, with `Z`'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l markers -d 'Marker grammar (default kb; id for agentfootprint input)' -r -f -a "kb\t'`[KB-N]`, 1-based; a bracket starting with `KB` in any case that is not exactly that is malformed'
numeric\t'`[3]`, `[1, 2]`, `[1-3]`, `[2 and 3]`: whole numbers, lists and ranges, 1-based'
doc\t'`[docN]`, 1-based (Azure "on your data" style)'
footnote\t'`[^N]`, 1-based footnotes'
id\t'`[chunk-or-document-id]`: names a chunk of the turn by id'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l marker-regex -d 'A custom marker regex with exactly one capture group holding the chunk index' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l marker-base -d 'Index base of --marker-regex captures' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l compare-previous -d 'Compare the --since window with the window of the same length just before it'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l csv-raw -d 'CSV: write values as they are, without neutralising leading = + - @'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l strict -d 'Make the first invalid line fatal (exit 3)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -l no-dedupe -d 'Keep repeated turn ids instead of counting them as duplicates'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -s s -l case-sensitive -d 'Match --grep with case, even for an all-lower-case pattern'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand summary" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l format -d 'Output format' -r -f -a "text\t'The decision line first, then one line per gate'
json\t'Decision, gates, rollup and input accounting'
junit\t'JUnit XML: a testsuite per agent plus an overall one, a testcase per gate'
github\t'GitHub workflow commands; a summary table in $GITHUB_STEP_SUMMARY when set'
markdown\t'A Markdown table for pull-request comments'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l partial -d 'Instead of gating, write the run\'s complete mergeable state (a versioned JSON partial; `-` for stdout) for `grounding-audit merge`, which takes the gates. See docs/scale-out.md' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l min-rate -d 'The grounded rate (grounded / with_retrieval) must be at least R (0..1).' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l max-drop -d 'The grounded rate may fall by at most D against --baseline (0..1).' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l max-orphans -d 'At most N orphan_marker turns.' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l max-orphan-rate -d 'At most this share of answered turns may be orphan_marker (0..1).' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l max-unobserved-rate -d 'At most this share of turns may have no observed answer (0..1).' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l max-fabricated-quotes -d 'At most N fabricated quotes: quoted text that no retrieved chunk holds, even in pieces.' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l min-coverage -d 'Citation coverage (sentences of the answers carrying a citation that resolves / sentences) must be at least R (0..1); with --per-agent, each agent\'s too.' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l min-turns -d 'Fewer turns with retrieval than N is not enough evidence (fails overall; agents are not gated) [default: 1]' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l confidence -d 'Gate on intervals at this confidence (e.g. 0.95): a rate fails only when its Wilson upper bound is below --min-rate; a drop only when significant' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l baseline -d 'A saved `summary --format json` document to compare against (see --max-drop)' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l write-baseline -d 'Write this run\'s `summary --format json` document to FILE, for a later --baseline' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l policy -d 'Gates from a TOML file: [defaults] and [agents.<id>] tables of min_rate, max_drop, max_orphans, max_orphan_rate, max_unobserved_rate, max_fabricated_quotes, min_coverage, min_turns, confidence, require_proof (implies --per-agent; flags given on the command line win over [defaults])' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l max-invalid -d 'Invalid input lines above N fail the run with exit 3' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l output -d 'Write the document to FILE; the decision line then goes to stdout' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l junit -d 'Also write JUnit XML to FILE' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l json -d 'Also write the JSON document to FILE' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l markdown -d 'Also write the Markdown table to FILE' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l html -d 'Also write the HTML summary report of this run to FILE (its trend marks --min-rate)' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l triage-order -d 'Order of the triage list (as `summary --triage-order`): of the HTML report and the baseline (`check`), of every format (`merge` of summary partials)' -r -f -a "severity\t'Invented citations first, then missing markers on confident retrieval, then the rest; within each, turns of a group with a significant drop first; then newest first'
recent\t'Newest first, whatever the verdict'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l max-line-bytes -d 'Lines longer than this are invalid lines (not read into memory)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l max-document-bytes -d 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l input-format -d 'Input dialect; `auto` decides per file from its first bytes' -r -f -a "auto\t'Decide per file from its first bytes'
agentfootprint\t'agentfootprint event streams, recordings and audit bundles'
otlp\t'OTLP/JSON trace requests (Collector or SDK file exporter)'
phoenix-otlp\t'Phoenix OTLP-JSON download (snake_case OTLP)'
datadog\t'Datadog APM traces (an array of traces, each an array of spans with meta and metrics)'
phoenix-dataframe\t'Phoenix get_spans_dataframe() rows as JSON'
phoenix-jsonl\t'Phoenix spans (JSONL download or REST page)'
trulens-events\t'TruLens OTel event rows (record, record_attributes)'
otel-sdk-json\t'OpenTelemetry SDK span objects (Python span.to_json(), JS ReadableSpan), lines or an array'
langsmith\t'LangSmith runs: list_runs() dumps (JSONL or a JSON array)'
langfuse\t'Langfuse observations: blob-storage export (observations_v2, legacy traces/observations) or UI JSON export'
exchange\t'Recorded provider API calls (request and response), graded by their structured citations'
adk\t'Google ADK Session JSON (one turn per invocation) or EvalSet JSON (expected turns, not observed ones)'
braintrust\t'Braintrust log rows (start and merge rows by span id; one turn per root span), /logs3 bodies or recordings of them'
turns\t'The native turn log: one JSON turn per line'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l retrievals -d 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call\'s input (else the last retrieval), the last one before the answer, or all of them in start order' -r -f -a "prompt\t'The retrieved documents whose text is in the answering LLM call\'s recorded input, in that order; where none is (or the input was not recorded), the last retrieval'
last\t'The last retrieval that finished before the answer started (what the model answered from)'
all\t'Every retrieval before the answer, in start order (sources numbered across searches)'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l assembly-window -d 'Records (spans, events) read without one of a trace\'s or run\'s own before it is assembled; bounds memory by the traces still open' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l agent-name -d 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l map -d 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l set -d 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l map-file -d 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l from -d 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l to -d 'Only turns before this time (exclusive; same forms as --from)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l since -d 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l now -d 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l agent -d 'Only this agent (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l channel -d 'Only this channel, e.g. chat or voice (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l model -d 'Only turns answered by this model (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l turn -d 'Only this turn (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l conversation -d 'Only turns of this conversation (repeatable); report lists them oldest first' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l grep -d 'Only turns whose reply text matches this regex (the text is still not printed without --show-text). Smart case, as ripgrep: a pattern without an upper-case letter ignores case (refund finds Refunds); one with an upper-case letter, or --case-sensitive, does not' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l cited-below -d 'Only turns citing a chunk whose score is under S' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l confidence-below -d 'Only turns whose confidence is under S (turns without scores never are)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l tz -d 'Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l show-tz -d 'How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc' -r -f -a "local\t'In the --tz zone, with its offset'
utc\t'In UTC, with `Z`'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l markers -d 'Marker grammar (default kb; id for agentfootprint input)' -r -f -a "kb\t'`[KB-N]`, 1-based; a bracket starting with `KB` in any case that is not exactly that is malformed'
numeric\t'`[3]`, `[1, 2]`, `[1-3]`, `[2 and 3]`: whole numbers, lists and ranges, 1-based'
doc\t'`[docN]`, 1-based (Azure "on your data" style)'
footnote\t'`[^N]`, 1-based footnotes'
id\t'`[chunk-or-document-id]`: names a chunk of the turn by id'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l marker-regex -d 'A custom marker regex with exactly one capture group holding the chunk index' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l marker-base -d 'Index base of --marker-regex captures' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l per-agent -d 'Apply the rate gates (--min-rate, --max-drop, --max-orphan-rate) to each agent as well as overall'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l require-proof -d 'With --confidence: the Wilson lower bound must clear --min-rate (the stricter rule, for regulated agents)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l ratchet -d 'With --write-baseline: write it only when every gate passed, keeping overall and per agent the better of the old baseline (--baseline, else the file written) and this run, so the baseline only moves up. A --baseline that is the file written and does not exist yet is the first night: no drop is gated, and the run starts the baseline'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l allow-empty -d 'Pass (with a warning) when no turn had retrieval'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l github -d 'Also print GitHub workflow commands (and append the job summary to $GITHUB_STEP_SUMMARY when set)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l strict -d 'Make the first invalid line fatal (exit 3)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -l no-dedupe -d 'Keep repeated turn ids instead of counting them as duplicates'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -s s -l case-sensitive -d 'Match --grep with case, even for an all-lower-case pattern'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l max-line-bytes -d 'Lines longer than this are invalid lines (not read into memory)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l max-document-bytes -d 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l input-format -d 'Input dialect; `auto` decides per file from its first bytes' -r -f -a "auto\t'Decide per file from its first bytes'
agentfootprint\t'agentfootprint event streams, recordings and audit bundles'
otlp\t'OTLP/JSON trace requests (Collector or SDK file exporter)'
phoenix-otlp\t'Phoenix OTLP-JSON download (snake_case OTLP)'
datadog\t'Datadog APM traces (an array of traces, each an array of spans with meta and metrics)'
phoenix-dataframe\t'Phoenix get_spans_dataframe() rows as JSON'
phoenix-jsonl\t'Phoenix spans (JSONL download or REST page)'
trulens-events\t'TruLens OTel event rows (record, record_attributes)'
otel-sdk-json\t'OpenTelemetry SDK span objects (Python span.to_json(), JS ReadableSpan), lines or an array'
langsmith\t'LangSmith runs: list_runs() dumps (JSONL or a JSON array)'
langfuse\t'Langfuse observations: blob-storage export (observations_v2, legacy traces/observations) or UI JSON export'
exchange\t'Recorded provider API calls (request and response), graded by their structured citations'
adk\t'Google ADK Session JSON (one turn per invocation) or EvalSet JSON (expected turns, not observed ones)'
braintrust\t'Braintrust log rows (start and merge rows by span id; one turn per root span), /logs3 bodies or recordings of them'
turns\t'The native turn log: one JSON turn per line'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l retrievals -d 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call\'s input (else the last retrieval), the last one before the answer, or all of them in start order' -r -f -a "prompt\t'The retrieved documents whose text is in the answering LLM call\'s recorded input, in that order; where none is (or the input was not recorded), the last retrieval'
last\t'The last retrieval that finished before the answer started (what the model answered from)'
all\t'Every retrieval before the answer, in start order (sources numbered across searches)'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l assembly-window -d 'Records (spans, events) read without one of a trace\'s or run\'s own before it is assembled; bounds memory by the traces still open' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l agent-name -d 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l map -d 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l set -d 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l map-file -d 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l markers -d 'Marker grammar (default kb; id for agentfootprint input)' -r -f -a "kb\t'`[KB-N]`, 1-based; a bracket starting with `KB` in any case that is not exactly that is malformed'
numeric\t'`[3]`, `[1, 2]`, `[1-3]`, `[2 and 3]`: whole numbers, lists and ranges, 1-based'
doc\t'`[docN]`, 1-based (Azure "on your data" style)'
footnote\t'`[^N]`, 1-based footnotes'
id\t'`[chunk-or-document-id]`: names a chunk of the turn by id'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l marker-regex -d 'A custom marker regex with exactly one capture group holding the chunk index' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l marker-base -d 'Index base of --marker-regex captures' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l low-score -d 'Citations of chunks scoring below this are flagged as low-confidence citations' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l tz -d 'Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l show-tz -d 'How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc' -r -f -a "local\t'In the --tz zone, with its offset'
utc\t'In UTC, with `Z`'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l format -d 'Output format' -r -f -a "text\t'A readable audit of the turn'
json\t'The same as one JSON document'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l strict -d 'Make the first invalid line fatal (exit 3)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l no-dedupe -d 'Keep repeated turn ids instead of counting them as duplicates'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l show-text -d 'Show the text the log carries: the question, the reply (markers highlighted on a terminal) and each chunk\'s text (cited chunks marked)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -l show-tools -d 'Show tool-call arguments and results'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l max-line-bytes -d 'Lines longer than this are invalid lines (not read into memory)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l max-document-bytes -d 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l input-format -d 'Input dialect; `auto` decides per file from its first bytes' -r -f -a "auto\t'Decide per file from its first bytes'
agentfootprint\t'agentfootprint event streams, recordings and audit bundles'
otlp\t'OTLP/JSON trace requests (Collector or SDK file exporter)'
phoenix-otlp\t'Phoenix OTLP-JSON download (snake_case OTLP)'
datadog\t'Datadog APM traces (an array of traces, each an array of spans with meta and metrics)'
phoenix-dataframe\t'Phoenix get_spans_dataframe() rows as JSON'
phoenix-jsonl\t'Phoenix spans (JSONL download or REST page)'
trulens-events\t'TruLens OTel event rows (record, record_attributes)'
otel-sdk-json\t'OpenTelemetry SDK span objects (Python span.to_json(), JS ReadableSpan), lines or an array'
langsmith\t'LangSmith runs: list_runs() dumps (JSONL or a JSON array)'
langfuse\t'Langfuse observations: blob-storage export (observations_v2, legacy traces/observations) or UI JSON export'
exchange\t'Recorded provider API calls (request and response), graded by their structured citations'
adk\t'Google ADK Session JSON (one turn per invocation) or EvalSet JSON (expected turns, not observed ones)'
braintrust\t'Braintrust log rows (start and merge rows by span id; one turn per root span), /logs3 bodies or recordings of them'
turns\t'The native turn log: one JSON turn per line'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l retrievals -d 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call\'s input (else the last retrieval), the last one before the answer, or all of them in start order' -r -f -a "prompt\t'The retrieved documents whose text is in the answering LLM call\'s recorded input, in that order; where none is (or the input was not recorded), the last retrieval'
last\t'The last retrieval that finished before the answer started (what the model answered from)'
all\t'Every retrieval before the answer, in start order (sources numbered across searches)'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l assembly-window -d 'Records (spans, events) read without one of a trace\'s or run\'s own before it is assembled; bounds memory by the traces still open' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l agent-name -d 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l map -d 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l set -d 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l map-file -d 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l from -d 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l to -d 'Only turns before this time (exclusive; same forms as --from)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l since -d 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l now -d 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l agent -d 'Only this agent (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l channel -d 'Only this channel, e.g. chat or voice (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l model -d 'Only turns answered by this model (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l turn -d 'Only this turn (repeatable)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l conversation -d 'Only turns of this conversation (repeatable); report lists them oldest first' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l grep -d 'Only turns whose reply text matches this regex (the text is still not printed without --show-text). Smart case, as ripgrep: a pattern without an upper-case letter ignores case (refund finds Refunds); one with an upper-case letter, or --case-sensitive, does not' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l cited-below -d 'Only turns citing a chunk whose score is under S' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l confidence-below -d 'Only turns whose confidence is under S (turns without scores never are)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l tz -d 'Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l show-tz -d 'How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc' -r -f -a "local\t'In the --tz zone, with its offset'
utc\t'In UTC, with `Z`'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l markers -d 'Marker grammar (default kb; id for agentfootprint input)' -r -f -a "kb\t'`[KB-N]`, 1-based; a bracket starting with `KB` in any case that is not exactly that is malformed'
numeric\t'`[3]`, `[1, 2]`, `[1-3]`, `[2 and 3]`: whole numbers, lists and ranges, 1-based'
doc\t'`[docN]`, 1-based (Azure "on your data" style)'
footnote\t'`[^N]`, 1-based footnotes'
id\t'`[chunk-or-document-id]`: names a chunk of the turn by id'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l marker-regex -d 'A custom marker regex with exactly one capture group holding the chunk index' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l marker-base -d 'Index base of --marker-regex captures' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l for -d 'Write only the units a judge must decide (cited sentences with the text of the chunks they cite, hinted ones first), in the input this judge loads; what the log decides is left out and counted on standard error' -r -f -a "ragas\t'Ragas: JSON lines of an EvaluationDataset (user_input, response, retrieved_contexts)'
deepeval\t'DeepEval: a JSON array of test cases (input, actual_output, retrieval_context)'
promptfoo\t'promptfoo: a config with one context-faithfulness test per unit'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l strict -d 'Make the first invalid line fatal (exit 3)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l no-dedupe -d 'Keep repeated turn ids instead of counting them as duplicates'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -s s -l case-sensitive -d 'Match --grep with case, even for an all-lower-case pattern'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -l show-text -d 'Include the free text the log carries (question, injected chunk text, model outputs, reply); without it records hold ids, scores, lengths and statuses only'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand evidence" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l max-line-bytes -d 'Lines longer than this are invalid lines (not read into memory)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l max-document-bytes -d 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l input-format -d 'Input dialect; `auto` decides per file from its first bytes' -r -f -a "auto\t'Decide per file from its first bytes'
agentfootprint\t'agentfootprint event streams, recordings and audit bundles'
otlp\t'OTLP/JSON trace requests (Collector or SDK file exporter)'
phoenix-otlp\t'Phoenix OTLP-JSON download (snake_case OTLP)'
datadog\t'Datadog APM traces (an array of traces, each an array of spans with meta and metrics)'
phoenix-dataframe\t'Phoenix get_spans_dataframe() rows as JSON'
phoenix-jsonl\t'Phoenix spans (JSONL download or REST page)'
trulens-events\t'TruLens OTel event rows (record, record_attributes)'
otel-sdk-json\t'OpenTelemetry SDK span objects (Python span.to_json(), JS ReadableSpan), lines or an array'
langsmith\t'LangSmith runs: list_runs() dumps (JSONL or a JSON array)'
langfuse\t'Langfuse observations: blob-storage export (observations_v2, legacy traces/observations) or UI JSON export'
exchange\t'Recorded provider API calls (request and response), graded by their structured citations'
adk\t'Google ADK Session JSON (one turn per invocation) or EvalSet JSON (expected turns, not observed ones)'
braintrust\t'Braintrust log rows (start and merge rows by span id; one turn per root span), /logs3 bodies or recordings of them'
turns\t'The native turn log: one JSON turn per line'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l retrievals -d 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call\'s input (else the last retrieval), the last one before the answer, or all of them in start order' -r -f -a "prompt\t'The retrieved documents whose text is in the answering LLM call\'s recorded input, in that order; where none is (or the input was not recorded), the last retrieval'
last\t'The last retrieval that finished before the answer started (what the model answered from)'
all\t'Every retrieval before the answer, in start order (sources numbered across searches)'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l assembly-window -d 'Records (spans, events) read without one of a trace\'s or run\'s own before it is assembled; bounds memory by the traces still open' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l agent-name -d 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l map -d 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l set -d 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l map-file -d 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l markers -d 'Marker grammar (default kb; id for agentfootprint input)' -r -f -a "kb\t'`[KB-N]`, 1-based; a bracket starting with `KB` in any case that is not exactly that is malformed'
numeric\t'`[3]`, `[1, 2]`, `[1-3]`, `[2 and 3]`: whole numbers, lists and ranges, 1-based'
doc\t'`[docN]`, 1-based (Azure "on your data" style)'
footnote\t'`[^N]`, 1-based footnotes'
id\t'`[chunk-or-document-id]`: names a chunk of the turn by id'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l marker-regex -d 'A custom marker regex with exactly one capture group holding the chunk index' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l marker-base -d 'Index base of --marker-regex captures' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l to -d 'Output format' -r -f -a "turns\t'The native turn-log JSONL'
otel-eval\t'One OpenTelemetry `gen_ai.evaluation.result` event per turn, as OTLP/JSON logs (one ExportLogsServiceRequest per line)'
phoenix-annotations\t'One Phoenix span annotation per turn with a reply span (JSONL; wrap in {"data": [...]} to upload)'
langfuse-scores\t'One Langfuse score body per traced turn (JSONL; POST each to /api/public/scores)'
langsmith-feedback\t'One LangSmith feedback per traced turn, on the reply run (JSONL; pass each to Client.create_feedback)'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l strict -d 'Make the first invalid line fatal (exit 3)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l no-dedupe -d 'Keep repeated turn ids instead of counting them as duplicates'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -l skip-unaddressable -d 'Write back the turns whose span, observation or run can be addressed and warn with the count of the others (by default one that cannot be addressed is an error, exit 3, and nothing is written)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand convert" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand inspect" -l sample -d 'Records read from each file unless --all' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand inspect" -l format -d 'Output format' -r -f -a "text\t'A readable report per file'
json\t'One JSON array with a document per file'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand inspect" -l map -d 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand inspect" -l set -d 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand inspect" -l map-file -d 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand inspect" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand inspect" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand inspect" -l all -d 'Read every record instead of a sample'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand inspect" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand inspect" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand completions" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand completions" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand completions" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand man" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand man" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand man" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l format -d 'Output format: one of the formats of the command the partials hold (summary: table, json, markdown, csv, html, prometheus; report: table, csv, json, jsonl, markdown; check: text, json, junit, github, markdown). Default: that command\'s' -r -f -a "table\t''
json\t''
markdown\t''
csv\t''
html\t''
prometheus\t''
jsonl\t''
text\t''
junit\t''
github\t''"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l section -d 'Summary, with --format csv: which table to print (default: groups)' -r -f -a "groups\t''
days\t'The trend, one row per bucket (--bucket; days by default)'
group-days\t'The trend per group: one row per group and bucket'
triage\t''
guardrail\t'What require_citation would refuse, per group'
scores\t'Chunk scores of cited and uncited chunks per group, in 20 bins over [0, 1]'
compare\t'The comparison with the baseline (--compare, --compare-from/--compare-to, --compare-previous)'
evidence\t'Evidence completeness per group and bucket: turns whose retrieved documents are in the export, and why the rest are not'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l show-tz -d 'How times are printed: local (in the partials\' --tz zone) or utc. Default: local when the partials were made with a zone other than UTC, as one pass prints them' -r -f -a "local\t'In the --tz zone, with its offset'
utc\t'In UTC, with `Z`'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l columns -d 'Report: table, Markdown and CSV columns, in this order (as `report --columns`)' -r -f -a "turn_id\t''
agent_id\t''
conversation_id\t''
channel\t''
created_at\t''
verdict\t''
partial\t''
cited_chunks\t''
marker_count\t''
out_of_range_markers\t''
malformed_markers\t''
markers_from\t''
chunk_count\t''
confidence\t''
document_ids\t''
chunk_ids\t''
scores\t''
tool_calls\t''
tool_errors\t''
model\t''
tokens_used\t''
cost_cents\t''
latency_ms\t''
unobserved_reason\t''
sentences\t''
cited_sentences\t''
coverage\t''
quotes_exact\t''
quotes_normalised\t''
quotes_absent\t''
offsets_mismatched\t''
hints\t''
unchecked\t''
cited_documents\t''
quotes_misattributed\t''
quotes_stitched\t''
quotes_fabricated\t''
evidence\t''"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l min-rate -d 'The grounded rate (grounded / with_retrieval) must be at least R (0..1).' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l max-drop -d 'The grounded rate may fall by at most D against --baseline (0..1).' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l max-orphans -d 'At most N orphan_marker turns.' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l max-orphan-rate -d 'At most this share of answered turns may be orphan_marker (0..1).' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l max-unobserved-rate -d 'At most this share of turns may have no observed answer (0..1).' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l max-fabricated-quotes -d 'At most N fabricated quotes: quoted text that no retrieved chunk holds, even in pieces.' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l min-coverage -d 'Citation coverage (sentences of the answers carrying a citation that resolves / sentences) must be at least R (0..1); with --per-agent, each agent\'s too.' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l min-turns -d 'Fewer turns with retrieval than N is not enough evidence (fails overall; agents are not gated) [default: 1]' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l confidence -d 'Gate on intervals at this confidence (e.g. 0.95): a rate fails only when its Wilson upper bound is below --min-rate; a drop only when significant' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l baseline -d 'A saved `summary --format json` document to compare against (see --max-drop)' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l write-baseline -d 'Write this run\'s `summary --format json` document to FILE, for a later --baseline' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l policy -d 'Gates from a TOML file: [defaults] and [agents.<id>] tables of min_rate, max_drop, max_orphans, max_orphan_rate, max_unobserved_rate, max_fabricated_quotes, min_coverage, min_turns, confidence, require_proof (implies --per-agent; flags given on the command line win over [defaults])' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l max-invalid -d 'Invalid input lines above N fail the run with exit 3' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l output -d 'Write the document to FILE; the decision line then goes to stdout' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l junit -d 'Also write JUnit XML to FILE' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l json -d 'Also write the JSON document to FILE' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l markdown -d 'Also write the Markdown table to FILE' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l html -d 'Also write the HTML summary report of this run to FILE (its trend marks --min-rate)' -r -F
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l triage-order -d 'Order of the triage list (as `summary --triage-order`): of the HTML report and the baseline (`check`), of every format (`merge` of summary partials)' -r -f -a "severity\t'Invented citations first, then missing markers on confident retrieval, then the rest; within each, turns of a group with a significant drop first; then newest first'
recent\t'Newest first, whatever the verdict'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l threads -d 'Worker threads (default: all cores)' -r
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l color -d 'When to colour tables' -r -f -a "auto\t'Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb'
always\t'Always colour tables'
never\t'Never colour'"
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l csv-raw -d 'Summary and report, CSV: no spreadsheet-formula escaping'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l per-agent -d 'Apply the rate gates (--min-rate, --max-drop, --max-orphan-rate) to each agent as well as overall'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l require-proof -d 'With --confidence: the Wilson lower bound must clear --min-rate (the stricter rule, for regulated agents)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l ratchet -d 'With --write-baseline: write it only when every gate passed, keeping overall and per agent the better of the old baseline (--baseline, else the file written) and this run, so the baseline only moves up. A --baseline that is the file written and does not exist yet is the first night: no drop is gated, and the run starts the baseline'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l allow-empty -d 'Pass (with a warning) when no turn had retrieval'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -l github -d 'Also print GitHub workflow commands (and append the job summary to $GITHUB_STEP_SUMMARY when set)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -s q -l quiet -d 'Hide the progress bar'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand merge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "report" -d 'Grade turns and list them one page at a time, newest first'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "summary" -d 'Roll up every matching turn: totals, per agent, daily trend, triage list'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "check" -d 'Gate a CI pipeline on the grounded rate (exit 1 when a gate fails)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "explain" -d 'Show one turn\'s full audit: chunks, markers, tools, telemetry'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "evidence" -d 'Print one JSON evidence record per turn (free text only with --show-text)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "convert" -d 'Convert any log to the native turn log, or write verdicts back as OTel evaluation events, Phoenix span annotations, Langfuse scores or LangSmith feedback'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "inspect" -d 'Say what a file is before grading it: format, field coverage, the map that reads it (try one with --map, --set, --map-file), marker grammar, and a command line that grades it'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "completions" -d 'Print a shell completion script'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "man" -d 'Print the man page (roff; e.g. `grounding-audit man > ~/.local/share/man/man1/grounding-audit.1`)'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "merge" -d 'Render summary, report or check from partials (`--partial`), as one pass over all their input'
complete -c grounding-audit -n "__fish_grounding_audit_using_subcommand help; and not __fish_seen_subcommand_from report summary check explain evidence convert inspect completions man merge help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'

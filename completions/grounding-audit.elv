
use builtin;
use str;

set edit:completion:arg-completer[grounding-audit] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'grounding-audit'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'grounding-audit'= {
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand report 'Grade turns and list them one page at a time, newest first'
            cand summary 'Roll up every matching turn: totals, per agent, daily trend, triage list'
            cand check 'Gate a CI pipeline on the grounded rate (exit 1 when a gate fails)'
            cand explain 'Show one turn''s full audit: chunks, markers, tools, telemetry'
            cand evidence 'Print one JSON evidence record per turn of agentfootprint logs'
            cand convert 'Convert any log to the native turn log, or write verdicts back as OTel evaluation events or Phoenix span annotations'
            cand inspect 'Say what a file is before grading it: format, field coverage, marker grammar, and a command line that grades it'
            cand completions 'Print a shell completion script'
            cand generate 'Write a deterministic synthetic turn log (for benchmarks and tests)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'grounding-audit;report'= {
            cand --max-line-bytes 'Lines longer than this are invalid lines (not read into memory)'
            cand --input-format 'Input dialect; `auto` decides per file from its first bytes'
            cand --retrievals 'Which retrievals of an assembled trace give its chunks: the last one before the answer, or all of them in start order'
            cand --assembly-window 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open'
            cand --agent-name 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it'
            cand --map 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance'
            cand --map-file 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it'
            cand --from 'Only turns at or after this time (RFC 3339, or YYYY-MM-DD for UTC midnight)'
            cand --to 'Only turns before this time (exclusive; RFC 3339 or YYYY-MM-DD)'
            cand --agent 'Only this agent (repeatable)'
            cand --channel 'Only this channel, e.g. chat or voice (repeatable)'
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --verdict 'Only turns with this verdict (repeatable)'
            cand --limit 'Rows per page (1-200)'
            cand --cursor 'Continue after the last row of a previous page (from its next_cursor)'
            cand --format 'Output format'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand --would-block 'Only turns Orbit''s require_citation guardrail would refuse: retrieval and no well-formed marker of the grammar'
            cand --all 'Every matching row in input order, streamed, with the summary over all of them'
            cand --csv-raw 'CSV: write values as they are, without neutralising leading = + - @'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'grounding-audit;summary'= {
            cand --max-line-bytes 'Lines longer than this are invalid lines (not read into memory)'
            cand --input-format 'Input dialect; `auto` decides per file from its first bytes'
            cand --retrievals 'Which retrievals of an assembled trace give its chunks: the last one before the answer, or all of them in start order'
            cand --assembly-window 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open'
            cand --agent-name 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it'
            cand --map 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance'
            cand --map-file 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it'
            cand --from 'Only turns at or after this time (RFC 3339, or YYYY-MM-DD for UTC midnight)'
            cand --to 'Only turns before this time (exclusive; RFC 3339 or YYYY-MM-DD)'
            cand --agent 'Only this agent (repeatable)'
            cand --channel 'Only this channel, e.g. chat or voice (repeatable)'
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --by 'Breakdown key'
            cand --triage 'Most recent ungrounded turns to list (0 turns the list off)'
            cand --tz 'Day boundaries at this UTC offset, e.g. +02:00 (default UTC)'
            cand --low-score 'Citations of chunks scoring below this count as low-confidence citations'
            cand --bucket 'Trend bucket width (at the --tz offset)'
            cand --compare 'Compare with a baseline: a saved `summary --format json` document'
            cand --compare-from 'Compare with the turns of the same logs from this time (the baseline window; with --compare-to)'
            cand --compare-to 'End of the baseline window (exclusive)'
            cand --since 'Only turns in the last DURATION (30m, 12h, 7d, 2w) before --now'
            cand --now 'The time --since counts back from (RFC 3339 or YYYY-MM-DD; default: the current time)'
            cand --confidence 'Confidence of the comparison''s intervals'
            cand --format 'Output format'
            cand --section 'With --format csv: which table (default groups)'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand --compare-previous 'Compare the --since window with the window of the same length just before it'
            cand --csv-raw 'CSV: write values as they are, without neutralising leading = + - @'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'grounding-audit;check'= {
            cand --max-line-bytes 'Lines longer than this are invalid lines (not read into memory)'
            cand --input-format 'Input dialect; `auto` decides per file from its first bytes'
            cand --retrievals 'Which retrievals of an assembled trace give its chunks: the last one before the answer, or all of them in start order'
            cand --assembly-window 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open'
            cand --agent-name 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it'
            cand --map 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance'
            cand --map-file 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it'
            cand --from 'Only turns at or after this time (RFC 3339, or YYYY-MM-DD for UTC midnight)'
            cand --to 'Only turns before this time (exclusive; RFC 3339 or YYYY-MM-DD)'
            cand --agent 'Only this agent (repeatable)'
            cand --channel 'Only this channel, e.g. chat or voice (repeatable)'
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --min-rate 'The grounded rate (grounded / with_retrieval) must be at least R (0..1)'
            cand --min-turns 'Fewer turns with retrieval than N is not enough evidence (fails overall; agents are not gated) [default: 1]'
            cand --confidence 'Gate on intervals at this confidence (e.g. 0.95): a rate fails only when its Wilson upper bound is below --min-rate; a drop only when significant'
            cand --max-orphans 'At most N orphan_marker turns'
            cand --max-orphan-rate 'At most this share of answered turns may be orphan_marker (0..1)'
            cand --max-unobserved-rate 'At most this share of turns may have no observed answer (0..1)'
            cand --baseline 'A saved `summary --format json` document to compare against (see --max-drop)'
            cand --max-drop 'The grounded rate may fall by at most D against --baseline (0..1)'
            cand --write-baseline 'Write this run''s `summary --format json` document to FILE, for a later --baseline'
            cand --policy 'Gates from a TOML file: [defaults] and [agents.<id>] tables of min_rate, min_turns, max_drop, max_orphan_rate, confidence, require_proof (implies --per-agent; flags given on the command line win over [defaults])'
            cand --max-invalid 'Invalid input lines above N fail the run with exit 3'
            cand --format 'Output format'
            cand --output 'Write the document to FILE; the decision line then goes to stdout'
            cand --junit 'Also write JUnit XML to FILE'
            cand --json 'Also write the JSON document to FILE'
            cand --markdown 'Also write the Markdown table to FILE'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand --per-agent 'Apply the rate gates (--min-rate, --max-drop, --max-orphan-rate) to each agent as well as overall'
            cand --require-proof 'With --confidence: the Wilson lower bound must clear --min-rate (the stricter rule, for regulated agents)'
            cand --allow-empty 'Pass (with a warning) when no turn had retrieval'
            cand --github 'Also print GitHub workflow commands (and append the job summary to $GITHUB_STEP_SUMMARY when set)'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'grounding-audit;explain'= {
            cand --max-line-bytes 'Lines longer than this are invalid lines (not read into memory)'
            cand --input-format 'Input dialect; `auto` decides per file from its first bytes'
            cand --retrievals 'Which retrievals of an assembled trace give its chunks: the last one before the answer, or all of them in start order'
            cand --assembly-window 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open'
            cand --agent-name 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it'
            cand --map 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance'
            cand --map-file 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it'
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --format 'Output format'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand --show-text 'Show the reply text (markers highlighted on a terminal)'
            cand --show-tools 'Show tool-call arguments and results'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'grounding-audit;evidence'= {
            cand --max-line-bytes 'Lines longer than this are invalid lines (not read into memory)'
            cand --input-format 'Input dialect; `auto` decides per file from its first bytes'
            cand --retrievals 'Which retrievals of an assembled trace give its chunks: the last one before the answer, or all of them in start order'
            cand --assembly-window 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open'
            cand --agent-name 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it'
            cand --map 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance'
            cand --map-file 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it'
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'grounding-audit;convert'= {
            cand --max-line-bytes 'Lines longer than this are invalid lines (not read into memory)'
            cand --input-format 'Input dialect; `auto` decides per file from its first bytes'
            cand --retrievals 'Which retrievals of an assembled trace give its chunks: the last one before the answer, or all of them in start order'
            cand --assembly-window 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open'
            cand --agent-name 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it'
            cand --map 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance'
            cand --map-file 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it'
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --to 'Output format'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'grounding-audit;inspect'= {
            cand --sample 'Records read from each file unless --all'
            cand --format 'Output format'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --all 'Read every record instead of a sample'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'grounding-audit;completions'= {
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'grounding-audit;generate'= {
            cand --bytes 'Approximate size to write, in bytes (suffixes k, M, G allowed)'
            cand --seed 'Random seed'
            cand --agents 'Number of agents'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'grounding-audit;help'= {
            cand report 'Grade turns and list them one page at a time, newest first'
            cand summary 'Roll up every matching turn: totals, per agent, daily trend, triage list'
            cand check 'Gate a CI pipeline on the grounded rate (exit 1 when a gate fails)'
            cand explain 'Show one turn''s full audit: chunks, markers, tools, telemetry'
            cand evidence 'Print one JSON evidence record per turn of agentfootprint logs'
            cand convert 'Convert any log to the native turn log, or write verdicts back as OTel evaluation events or Phoenix span annotations'
            cand inspect 'Say what a file is before grading it: format, field coverage, marker grammar, and a command line that grades it'
            cand completions 'Print a shell completion script'
            cand generate 'Write a deterministic synthetic turn log (for benchmarks and tests)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'grounding-audit;help;report'= {
        }
        &'grounding-audit;help;summary'= {
        }
        &'grounding-audit;help;check'= {
        }
        &'grounding-audit;help;explain'= {
        }
        &'grounding-audit;help;evidence'= {
        }
        &'grounding-audit;help;convert'= {
        }
        &'grounding-audit;help;inspect'= {
        }
        &'grounding-audit;help;completions'= {
        }
        &'grounding-audit;help;generate'= {
        }
        &'grounding-audit;help;help'= {
        }
    ]
    $completions[$command]
}

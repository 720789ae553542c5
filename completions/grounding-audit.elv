
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
            cand evidence 'Print one JSON evidence record per turn (free text only with --show-text)'
            cand convert 'Convert any log to the native turn log, or write verdicts back as OTel evaluation events or Phoenix span annotations'
            cand completions 'Print a shell completion script'
            cand man 'Print the man page (roff; e.g. `grounding-audit man > ~/.local/share/man/man1/grounding-audit.1`)'
            cand generate 'Write a deterministic synthetic turn log (for benchmarks and tests)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'grounding-audit;report'= {
            cand --max-line-bytes 'Lines longer than this are invalid lines (not read into memory)'
            cand --input-format 'Input dialect; `auto` decides per file from its first bytes'
            cand --retrievals 'Which retrievals of an assembled trace give its chunks: the last one before the answer, or all of them in start order'
            cand --assembly-window 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open'
            cand --agent-name 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it'
            cand --from 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)'
            cand --to 'Only turns before this time (exclusive; same forms as --from)'
            cand --since 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)'
            cand --now 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs'
            cand --agent 'Only this agent (repeatable)'
            cand --channel 'Only this channel, e.g. chat or voice (repeatable)'
            cand --model 'Only turns answered by this model (repeatable)'
            cand --turn 'Only this turn (repeatable)'
            cand --conversation 'Only turns of this conversation (repeatable); report lists them oldest first'
            cand --grep 'Only turns whose reply text matches this regex (the text is still not printed without --show-text)'
            cand --cited-below 'Only turns citing a chunk whose score is under S'
            cand --confidence-below 'Only turns whose confidence is under S (turns without scores never are)'
            cand --tz 'Time zone of date-only --from/--to, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC'
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --verdict 'Only turns with this verdict (repeatable)'
            cand --limit 'Rows per page (1-200)'
            cand --cursor 'Continue after the last row of a previous page (from its next_cursor)'
            cand --format 'Output format'
            cand --columns 'Table, Markdown and CSV columns, in this order (comma-separated; names as in the JSON row, see README)'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand --show-tz 'Print times in the --tz zone (RFC 3339 with its offset) instead of UTC, in tables, Markdown, CSV and explain text; JSON stays UTC'
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
            cand --from 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)'
            cand --to 'Only turns before this time (exclusive; same forms as --from)'
            cand --since 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)'
            cand --now 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs'
            cand --agent 'Only this agent (repeatable)'
            cand --channel 'Only this channel, e.g. chat or voice (repeatable)'
            cand --model 'Only turns answered by this model (repeatable)'
            cand --turn 'Only this turn (repeatable)'
            cand --conversation 'Only turns of this conversation (repeatable); report lists them oldest first'
            cand --grep 'Only turns whose reply text matches this regex (the text is still not printed without --show-text)'
            cand --cited-below 'Only turns citing a chunk whose score is under S'
            cand --confidence-below 'Only turns whose confidence is under S (turns without scores never are)'
            cand --tz 'Time zone of date-only --from/--to, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC'
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --by 'Breakdown key'
            cand --triage 'Most recent ungrounded turns to list (0 turns the list off)'
            cand --low-score 'Citations of chunks scoring below this count as low-confidence citations'
            cand --format 'Output format'
            cand --section 'With --format csv: which table (default groups)'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand --show-tz 'Print times in the --tz zone (RFC 3339 with its offset) instead of UTC, in tables, Markdown, CSV and explain text; JSON stays UTC'
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
            cand --from 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)'
            cand --to 'Only turns before this time (exclusive; same forms as --from)'
            cand --since 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)'
            cand --now 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs'
            cand --agent 'Only this agent (repeatable)'
            cand --channel 'Only this channel, e.g. chat or voice (repeatable)'
            cand --model 'Only turns answered by this model (repeatable)'
            cand --turn 'Only this turn (repeatable)'
            cand --conversation 'Only turns of this conversation (repeatable); report lists them oldest first'
            cand --grep 'Only turns whose reply text matches this regex (the text is still not printed without --show-text)'
            cand --cited-below 'Only turns citing a chunk whose score is under S'
            cand --confidence-below 'Only turns whose confidence is under S (turns without scores never are)'
            cand --tz 'Time zone of date-only --from/--to, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC'
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --min-rate 'The grounded rate (grounded / with_retrieval) must be at least R (0..1)'
            cand --min-turns 'Fewer turns with retrieval than N is not enough evidence (fails overall; agents are not gated)'
            cand --confidence 'Gate on the Wilson score lower bound at this confidence (e.g. 0.95) instead of the point rate'
            cand --max-orphans 'At most N orphan_marker turns'
            cand --max-unobserved-rate 'At most this share of turns may have no observed answer (0..1)'
            cand --max-invalid 'Invalid input lines above N fail the run with exit 3'
            cand --format 'Output format'
            cand --output 'Write the document to FILE; the decision line then goes to stdout'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand --show-tz 'Print times in the --tz zone (RFC 3339 with its offset) instead of UTC, in tables, Markdown, CSV and explain text; JSON stays UTC'
            cand --per-agent 'Apply --min-rate to each agent as well as overall'
            cand --allow-empty 'Pass (with a warning) when no turn had retrieval'
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
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --low-score 'Citations of chunks scoring below this are flagged as low-confidence citations'
            cand --tz 'Time zone of date-only --from/--to, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC'
            cand --format 'Output format'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand --show-text 'Show the text the log carries: the question, the reply (markers highlighted on a terminal) and each chunk''s text (cited chunks marked)'
            cand --show-tools 'Show tool-call arguments and results'
            cand --show-tz 'Print times in the --tz zone (RFC 3339 with its offset) instead of UTC, in tables, Markdown, CSV and explain text; JSON stays UTC'
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
            cand --from 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)'
            cand --to 'Only turns before this time (exclusive; same forms as --from)'
            cand --since 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)'
            cand --now 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs'
            cand --agent 'Only this agent (repeatable)'
            cand --channel 'Only this channel, e.g. chat or voice (repeatable)'
            cand --model 'Only turns answered by this model (repeatable)'
            cand --turn 'Only this turn (repeatable)'
            cand --conversation 'Only turns of this conversation (repeatable); report lists them oldest first'
            cand --grep 'Only turns whose reply text matches this regex (the text is still not printed without --show-text)'
            cand --cited-below 'Only turns citing a chunk whose score is under S'
            cand --confidence-below 'Only turns whose confidence is under S (turns without scores never are)'
            cand --tz 'Time zone of date-only --from/--to, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC'
            cand --markers 'Marker grammar (default kb; id for agentfootprint input)'
            cand --marker-regex 'A custom marker regex with exactly one capture group holding the chunk index'
            cand --marker-base 'Index base of --marker-regex captures'
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand --strict 'Make the first invalid line fatal (exit 3)'
            cand --no-dedupe 'Keep repeated turn ids instead of counting them as duplicates'
            cand --show-tz 'Print times in the --tz zone (RFC 3339 with its offset) instead of UTC, in tables, Markdown, CSV and explain text; JSON stays UTC'
            cand --show-text 'Include the free text the log carries (question, injected chunk text, model outputs, reply); without it records hold ids, scores, lengths and statuses only'
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
        &'grounding-audit;completions'= {
            cand --threads 'Worker threads (default: all cores)'
            cand --color 'When to colour tables'
            cand -q 'Hide the progress bar'
            cand --quiet 'Hide the progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'grounding-audit;man'= {
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
            cand evidence 'Print one JSON evidence record per turn (free text only with --show-text)'
            cand convert 'Convert any log to the native turn log, or write verdicts back as OTel evaluation events or Phoenix span annotations'
            cand completions 'Print a shell completion script'
            cand man 'Print the man page (roff; e.g. `grounding-audit man > ~/.local/share/man/man1/grounding-audit.1`)'
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
        &'grounding-audit;help;completions'= {
        }
        &'grounding-audit;help;man'= {
        }
        &'grounding-audit;help;generate'= {
        }
        &'grounding-audit;help;help'= {
        }
    ]
    $completions[$command]
}


using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'grounding-audit' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'grounding-audit'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'grounding-audit' {
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Grade turns and list them one page at a time, newest first')
            [CompletionResult]::new('summary', 'summary', [CompletionResultType]::ParameterValue, 'Roll up every matching turn: totals, per agent, daily trend, triage list')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Gate a CI pipeline on the grounded rate (exit 1 when a gate fails)')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show one turn''s full audit: chunks, markers, tools, telemetry')
            [CompletionResult]::new('evidence', 'evidence', [CompletionResultType]::ParameterValue, 'Print one JSON evidence record per turn (free text only with --show-text)')
            [CompletionResult]::new('convert', 'convert', [CompletionResultType]::ParameterValue, 'Convert any log to the native turn log, or write verdicts back as OTel evaluation events, Phoenix span annotations, Langfuse scores or LangSmith feedback')
            [CompletionResult]::new('inspect', 'inspect', [CompletionResultType]::ParameterValue, 'Say what a file is before grading it: format, field coverage, the map that reads it (try one with --map, --set, --map-file), marker grammar, and a command line that grades it')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff; e.g. `grounding-audit man > ~/.local/share/man/man1/grounding-audit.1`)')
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'Render summary, report or check from partials (`--partial`), as one pass over all their input')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'grounding-audit;report' {
            [CompletionResult]::new('--verdict', '--verdict', [CompletionResultType]::ParameterName, 'Only turns with this verdict (repeatable)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Rows per page (1-200)')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Continue after the last row of a previous page (from its next_cursor)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--columns', '--columns', [CompletionResultType]::ParameterName, 'Table, Markdown and CSV columns, in this order (comma-separated; names as in the JSON row, see docs/report.md)')
            [CompletionResult]::new('--partial', '--partial', [CompletionResultType]::ParameterName, 'Instead of rendering, write the page''s complete mergeable state (a versioned JSON partial; `-` for stdout) for `grounding-audit merge`')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Lines longer than this are invalid lines (not read into memory)')
            [CompletionResult]::new('--max-document-bytes', '--max-document-bytes', [CompletionResultType]::ParameterName, 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it')
            [CompletionResult]::new('--input-format', '--input-format', [CompletionResultType]::ParameterName, 'Input dialect; `auto` decides per file from its first bytes')
            [CompletionResult]::new('--retrievals', '--retrievals', [CompletionResultType]::ParameterName, 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call''s input (else the last retrieval), the last one before the answer, or all of them in start order')
            [CompletionResult]::new('--assembly-window', '--assembly-window', [CompletionResultType]::ParameterName, 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open')
            [CompletionResult]::new('--agent-name', '--agent-name', [CompletionResultType]::ParameterName, 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it')
            [CompletionResult]::new('--map', '--map', [CompletionResultType]::ParameterName, 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1')
            [CompletionResult]::new('--map-file', '--map-file', [CompletionResultType]::ParameterName, 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Only turns before this time (exclusive; same forms as --from)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Only this agent (repeatable)')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Only this channel, e.g. chat or voice (repeatable)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Only turns answered by this model (repeatable)')
            [CompletionResult]::new('--turn', '--turn', [CompletionResultType]::ParameterName, 'Only this turn (repeatable)')
            [CompletionResult]::new('--conversation', '--conversation', [CompletionResultType]::ParameterName, 'Only turns of this conversation (repeatable); report lists them oldest first')
            [CompletionResult]::new('--grep', '--grep', [CompletionResultType]::ParameterName, 'Only turns whose reply text matches this regex (the text is still not printed without --show-text). Smart case, as ripgrep: a pattern without an upper-case letter ignores case (refund finds Refunds); one with an upper-case letter, or --case-sensitive, does not')
            [CompletionResult]::new('--cited-below', '--cited-below', [CompletionResultType]::ParameterName, 'Only turns citing a chunk whose score is under S')
            [CompletionResult]::new('--confidence-below', '--confidence-below', [CompletionResultType]::ParameterName, 'Only turns whose confidence is under S (turns without scores never are)')
            [CompletionResult]::new('--tz', '--tz', [CompletionResultType]::ParameterName, 'Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC')
            [CompletionResult]::new('--show-tz', '--show-tz', [CompletionResultType]::ParameterName, 'How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc')
            [CompletionResult]::new('--markers', '--markers', [CompletionResultType]::ParameterName, 'Marker grammar (default kb; id for agentfootprint input)')
            [CompletionResult]::new('--marker-regex', '--marker-regex', [CompletionResultType]::ParameterName, 'A custom marker regex with exactly one capture group holding the chunk index')
            [CompletionResult]::new('--marker-base', '--marker-base', [CompletionResultType]::ParameterName, 'Index base of --marker-regex captures')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('--would-block', '--would-block', [CompletionResultType]::ParameterName, 'Only turns a require_citation guardrail (the Orbit agent platform''s safety setting) would refuse: retrieval and no well-formed marker of the grammar')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every matching row in input order, streamed, with the summary over all of them')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'CSV: write values as they are, without neutralising leading = + - @')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Make the first invalid line fatal (exit 3)')
            [CompletionResult]::new('--no-dedupe', '--no-dedupe', [CompletionResultType]::ParameterName, 'Keep repeated turn ids instead of counting them as duplicates')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Match --grep with case, even for an all-lower-case pattern')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Match --grep with case, even for an all-lower-case pattern')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'grounding-audit;summary' {
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'Breakdown key')
            [CompletionResult]::new('--triage', '--triage', [CompletionResultType]::ParameterName, 'Ungrounded turns to list (0 turns the list off)')
            [CompletionResult]::new('--triage-order', '--triage-order', [CompletionResultType]::ParameterName, 'Order of the triage list: by severity (invented citations, then missing markers on confident retrieval, then the rest; a group in a significant drop first within each; then newest), or newest first')
            [CompletionResult]::new('--low-score', '--low-score', [CompletionResultType]::ParameterName, 'Citations of chunks scoring below this count as low-confidence citations')
            [CompletionResult]::new('--bucket', '--bucket', [CompletionResultType]::ParameterName, 'Trend bucket width (at the --tz offset)')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Compare with a baseline: a saved `summary --format json` document')
            [CompletionResult]::new('--compare-from', '--compare-from', [CompletionResultType]::ParameterName, 'Compare with the turns of the same logs from this time (the baseline window; with --compare-to)')
            [CompletionResult]::new('--compare-to', '--compare-to', [CompletionResultType]::ParameterName, 'End of the baseline window (exclusive)')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence of the comparison''s intervals')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--section', '--section', [CompletionResultType]::ParameterName, 'With --format csv: which table (default groups)')
            [CompletionResult]::new('--html', '--html', [CompletionResultType]::ParameterName, 'Also write the HTML report to FILE, in the same pass as --format')
            [CompletionResult]::new('--min-rate', '--min-rate', [CompletionResultType]::ParameterName, 'The HTML report marks this grounded rate (0..1) as the threshold on its trend')
            [CompletionResult]::new('--partial', '--partial', [CompletionResultType]::ParameterName, 'Instead of rendering, write the run''s complete mergeable state (a versioned JSON partial; `-` for stdout) for `grounding-audit merge`')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Lines longer than this are invalid lines (not read into memory)')
            [CompletionResult]::new('--max-document-bytes', '--max-document-bytes', [CompletionResultType]::ParameterName, 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it')
            [CompletionResult]::new('--input-format', '--input-format', [CompletionResultType]::ParameterName, 'Input dialect; `auto` decides per file from its first bytes')
            [CompletionResult]::new('--retrievals', '--retrievals', [CompletionResultType]::ParameterName, 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call''s input (else the last retrieval), the last one before the answer, or all of them in start order')
            [CompletionResult]::new('--assembly-window', '--assembly-window', [CompletionResultType]::ParameterName, 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open')
            [CompletionResult]::new('--agent-name', '--agent-name', [CompletionResultType]::ParameterName, 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it')
            [CompletionResult]::new('--map', '--map', [CompletionResultType]::ParameterName, 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1')
            [CompletionResult]::new('--map-file', '--map-file', [CompletionResultType]::ParameterName, 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Only turns before this time (exclusive; same forms as --from)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Only this agent (repeatable)')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Only this channel, e.g. chat or voice (repeatable)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Only turns answered by this model (repeatable)')
            [CompletionResult]::new('--turn', '--turn', [CompletionResultType]::ParameterName, 'Only this turn (repeatable)')
            [CompletionResult]::new('--conversation', '--conversation', [CompletionResultType]::ParameterName, 'Only turns of this conversation (repeatable); report lists them oldest first')
            [CompletionResult]::new('--grep', '--grep', [CompletionResultType]::ParameterName, 'Only turns whose reply text matches this regex (the text is still not printed without --show-text). Smart case, as ripgrep: a pattern without an upper-case letter ignores case (refund finds Refunds); one with an upper-case letter, or --case-sensitive, does not')
            [CompletionResult]::new('--cited-below', '--cited-below', [CompletionResultType]::ParameterName, 'Only turns citing a chunk whose score is under S')
            [CompletionResult]::new('--confidence-below', '--confidence-below', [CompletionResultType]::ParameterName, 'Only turns whose confidence is under S (turns without scores never are)')
            [CompletionResult]::new('--tz', '--tz', [CompletionResultType]::ParameterName, 'Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC')
            [CompletionResult]::new('--show-tz', '--show-tz', [CompletionResultType]::ParameterName, 'How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc')
            [CompletionResult]::new('--markers', '--markers', [CompletionResultType]::ParameterName, 'Marker grammar (default kb; id for agentfootprint input)')
            [CompletionResult]::new('--marker-regex', '--marker-regex', [CompletionResultType]::ParameterName, 'A custom marker regex with exactly one capture group holding the chunk index')
            [CompletionResult]::new('--marker-base', '--marker-base', [CompletionResultType]::ParameterName, 'Index base of --marker-regex captures')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('--compare-previous', '--compare-previous', [CompletionResultType]::ParameterName, 'Compare the --since window with the window of the same length just before it')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'CSV: write values as they are, without neutralising leading = + - @')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Make the first invalid line fatal (exit 3)')
            [CompletionResult]::new('--no-dedupe', '--no-dedupe', [CompletionResultType]::ParameterName, 'Keep repeated turn ids instead of counting them as duplicates')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Match --grep with case, even for an all-lower-case pattern')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Match --grep with case, even for an all-lower-case pattern')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'grounding-audit;check' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--partial', '--partial', [CompletionResultType]::ParameterName, 'Instead of gating, write the run''s complete mergeable state (a versioned JSON partial; `-` for stdout) for `grounding-audit merge`, which takes the gates. See docs/scale-out.md')
            [CompletionResult]::new('--min-rate', '--min-rate', [CompletionResultType]::ParameterName, 'The grounded rate (grounded / with_retrieval) must be at least R (0..1).')
            [CompletionResult]::new('--max-drop', '--max-drop', [CompletionResultType]::ParameterName, 'The grounded rate may fall by at most D against --baseline (0..1).')
            [CompletionResult]::new('--max-orphans', '--max-orphans', [CompletionResultType]::ParameterName, 'At most N orphan_marker turns.')
            [CompletionResult]::new('--max-orphan-rate', '--max-orphan-rate', [CompletionResultType]::ParameterName, 'At most this share of answered turns may be orphan_marker (0..1).')
            [CompletionResult]::new('--max-unobserved-rate', '--max-unobserved-rate', [CompletionResultType]::ParameterName, 'At most this share of turns may have no observed answer (0..1).')
            [CompletionResult]::new('--max-fabricated-quotes', '--max-fabricated-quotes', [CompletionResultType]::ParameterName, 'At most N fabricated quotes: quoted text that no retrieved chunk holds, even in pieces.')
            [CompletionResult]::new('--min-coverage', '--min-coverage', [CompletionResultType]::ParameterName, 'Citation coverage (sentences of the answers carrying a citation that resolves / sentences) must be at least R (0..1); with --per-agent, each agent''s too.')
            [CompletionResult]::new('--min-turns', '--min-turns', [CompletionResultType]::ParameterName, 'Fewer turns with retrieval than N is not enough evidence (fails overall; agents are not gated) [default: 1]')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Gate on intervals at this confidence (e.g. 0.95): a rate fails only when its Wilson upper bound is below --min-rate; a drop only when significant')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'A saved `summary --format json` document to compare against (see --max-drop)')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Write this run''s `summary --format json` document to FILE, for a later --baseline')
            [CompletionResult]::new('--policy', '--policy', [CompletionResultType]::ParameterName, 'Gates from a TOML file: [defaults] and [agents.<id>] tables of min_rate, max_drop, max_orphans, max_orphan_rate, max_unobserved_rate, max_fabricated_quotes, min_coverage, min_turns, confidence, require_proof (implies --per-agent; flags given on the command line win over [defaults])')
            [CompletionResult]::new('--max-invalid', '--max-invalid', [CompletionResultType]::ParameterName, 'Invalid input lines above N fail the run with exit 3')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the document to FILE; the decision line then goes to stdout')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write JUnit XML to FILE')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Also write the JSON document to FILE')
            [CompletionResult]::new('--markdown', '--markdown', [CompletionResultType]::ParameterName, 'Also write the Markdown table to FILE')
            [CompletionResult]::new('--html', '--html', [CompletionResultType]::ParameterName, 'Also write the HTML summary report of this run to FILE (its trend marks --min-rate)')
            [CompletionResult]::new('--triage-order', '--triage-order', [CompletionResultType]::ParameterName, 'Order of the triage list (as `summary --triage-order`): of the HTML report and the baseline (`check`), of every format (`merge` of summary partials)')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Lines longer than this are invalid lines (not read into memory)')
            [CompletionResult]::new('--max-document-bytes', '--max-document-bytes', [CompletionResultType]::ParameterName, 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it')
            [CompletionResult]::new('--input-format', '--input-format', [CompletionResultType]::ParameterName, 'Input dialect; `auto` decides per file from its first bytes')
            [CompletionResult]::new('--retrievals', '--retrievals', [CompletionResultType]::ParameterName, 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call''s input (else the last retrieval), the last one before the answer, or all of them in start order')
            [CompletionResult]::new('--assembly-window', '--assembly-window', [CompletionResultType]::ParameterName, 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open')
            [CompletionResult]::new('--agent-name', '--agent-name', [CompletionResultType]::ParameterName, 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it')
            [CompletionResult]::new('--map', '--map', [CompletionResultType]::ParameterName, 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1')
            [CompletionResult]::new('--map-file', '--map-file', [CompletionResultType]::ParameterName, 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Only turns before this time (exclusive; same forms as --from)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Only this agent (repeatable)')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Only this channel, e.g. chat or voice (repeatable)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Only turns answered by this model (repeatable)')
            [CompletionResult]::new('--turn', '--turn', [CompletionResultType]::ParameterName, 'Only this turn (repeatable)')
            [CompletionResult]::new('--conversation', '--conversation', [CompletionResultType]::ParameterName, 'Only turns of this conversation (repeatable); report lists them oldest first')
            [CompletionResult]::new('--grep', '--grep', [CompletionResultType]::ParameterName, 'Only turns whose reply text matches this regex (the text is still not printed without --show-text). Smart case, as ripgrep: a pattern without an upper-case letter ignores case (refund finds Refunds); one with an upper-case letter, or --case-sensitive, does not')
            [CompletionResult]::new('--cited-below', '--cited-below', [CompletionResultType]::ParameterName, 'Only turns citing a chunk whose score is under S')
            [CompletionResult]::new('--confidence-below', '--confidence-below', [CompletionResultType]::ParameterName, 'Only turns whose confidence is under S (turns without scores never are)')
            [CompletionResult]::new('--tz', '--tz', [CompletionResultType]::ParameterName, 'Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC')
            [CompletionResult]::new('--show-tz', '--show-tz', [CompletionResultType]::ParameterName, 'How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc')
            [CompletionResult]::new('--markers', '--markers', [CompletionResultType]::ParameterName, 'Marker grammar (default kb; id for agentfootprint input)')
            [CompletionResult]::new('--marker-regex', '--marker-regex', [CompletionResultType]::ParameterName, 'A custom marker regex with exactly one capture group holding the chunk index')
            [CompletionResult]::new('--marker-base', '--marker-base', [CompletionResultType]::ParameterName, 'Index base of --marker-regex captures')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('--per-agent', '--per-agent', [CompletionResultType]::ParameterName, 'Apply the rate gates (--min-rate, --max-drop, --max-orphan-rate) to each agent as well as overall')
            [CompletionResult]::new('--require-proof', '--require-proof', [CompletionResultType]::ParameterName, 'With --confidence: the Wilson lower bound must clear --min-rate (the stricter rule, for regulated agents)')
            [CompletionResult]::new('--ratchet', '--ratchet', [CompletionResultType]::ParameterName, 'With --write-baseline: write it only when every gate passed, keeping overall and per agent the better of the old baseline (--baseline, else the file written) and this run, so the baseline only moves up. A --baseline that is the file written and does not exist yet is the first night: no drop is gated, and the run starts the baseline')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Pass (with a warning) when no turn had retrieval')
            [CompletionResult]::new('--github', '--github', [CompletionResultType]::ParameterName, 'Also print GitHub workflow commands (and append the job summary to $GITHUB_STEP_SUMMARY when set)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Make the first invalid line fatal (exit 3)')
            [CompletionResult]::new('--no-dedupe', '--no-dedupe', [CompletionResultType]::ParameterName, 'Keep repeated turn ids instead of counting them as duplicates')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Match --grep with case, even for an all-lower-case pattern')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Match --grep with case, even for an all-lower-case pattern')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'grounding-audit;explain' {
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Lines longer than this are invalid lines (not read into memory)')
            [CompletionResult]::new('--max-document-bytes', '--max-document-bytes', [CompletionResultType]::ParameterName, 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it')
            [CompletionResult]::new('--input-format', '--input-format', [CompletionResultType]::ParameterName, 'Input dialect; `auto` decides per file from its first bytes')
            [CompletionResult]::new('--retrievals', '--retrievals', [CompletionResultType]::ParameterName, 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call''s input (else the last retrieval), the last one before the answer, or all of them in start order')
            [CompletionResult]::new('--assembly-window', '--assembly-window', [CompletionResultType]::ParameterName, 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open')
            [CompletionResult]::new('--agent-name', '--agent-name', [CompletionResultType]::ParameterName, 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it')
            [CompletionResult]::new('--map', '--map', [CompletionResultType]::ParameterName, 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1')
            [CompletionResult]::new('--map-file', '--map-file', [CompletionResultType]::ParameterName, 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it')
            [CompletionResult]::new('--markers', '--markers', [CompletionResultType]::ParameterName, 'Marker grammar (default kb; id for agentfootprint input)')
            [CompletionResult]::new('--marker-regex', '--marker-regex', [CompletionResultType]::ParameterName, 'A custom marker regex with exactly one capture group holding the chunk index')
            [CompletionResult]::new('--marker-base', '--marker-base', [CompletionResultType]::ParameterName, 'Index base of --marker-regex captures')
            [CompletionResult]::new('--low-score', '--low-score', [CompletionResultType]::ParameterName, 'Citations of chunks scoring below this are flagged as low-confidence citations')
            [CompletionResult]::new('--tz', '--tz', [CompletionResultType]::ParameterName, 'Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC')
            [CompletionResult]::new('--show-tz', '--show-tz', [CompletionResultType]::ParameterName, 'How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Make the first invalid line fatal (exit 3)')
            [CompletionResult]::new('--no-dedupe', '--no-dedupe', [CompletionResultType]::ParameterName, 'Keep repeated turn ids instead of counting them as duplicates')
            [CompletionResult]::new('--show-text', '--show-text', [CompletionResultType]::ParameterName, 'Show the text the log carries: the question, the reply (markers highlighted on a terminal) and each chunk''s text (cited chunks marked)')
            [CompletionResult]::new('--show-tools', '--show-tools', [CompletionResultType]::ParameterName, 'Show tool-call arguments and results')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'grounding-audit;evidence' {
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Lines longer than this are invalid lines (not read into memory)')
            [CompletionResult]::new('--max-document-bytes', '--max-document-bytes', [CompletionResultType]::ParameterName, 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it')
            [CompletionResult]::new('--input-format', '--input-format', [CompletionResultType]::ParameterName, 'Input dialect; `auto` decides per file from its first bytes')
            [CompletionResult]::new('--retrievals', '--retrievals', [CompletionResultType]::ParameterName, 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call''s input (else the last retrieval), the last one before the answer, or all of them in start order')
            [CompletionResult]::new('--assembly-window', '--assembly-window', [CompletionResultType]::ParameterName, 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open')
            [CompletionResult]::new('--agent-name', '--agent-name', [CompletionResultType]::ParameterName, 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it')
            [CompletionResult]::new('--map', '--map', [CompletionResultType]::ParameterName, 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1')
            [CompletionResult]::new('--map-file', '--map-file', [CompletionResultType]::ParameterName, 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Only turns before this time (exclusive; same forms as --from)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Only this agent (repeatable)')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Only this channel, e.g. chat or voice (repeatable)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Only turns answered by this model (repeatable)')
            [CompletionResult]::new('--turn', '--turn', [CompletionResultType]::ParameterName, 'Only this turn (repeatable)')
            [CompletionResult]::new('--conversation', '--conversation', [CompletionResultType]::ParameterName, 'Only turns of this conversation (repeatable); report lists them oldest first')
            [CompletionResult]::new('--grep', '--grep', [CompletionResultType]::ParameterName, 'Only turns whose reply text matches this regex (the text is still not printed without --show-text). Smart case, as ripgrep: a pattern without an upper-case letter ignores case (refund finds Refunds); one with an upper-case letter, or --case-sensitive, does not')
            [CompletionResult]::new('--cited-below', '--cited-below', [CompletionResultType]::ParameterName, 'Only turns citing a chunk whose score is under S')
            [CompletionResult]::new('--confidence-below', '--confidence-below', [CompletionResultType]::ParameterName, 'Only turns whose confidence is under S (turns without scores never are)')
            [CompletionResult]::new('--tz', '--tz', [CompletionResultType]::ParameterName, 'Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC')
            [CompletionResult]::new('--show-tz', '--show-tz', [CompletionResultType]::ParameterName, 'How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc')
            [CompletionResult]::new('--markers', '--markers', [CompletionResultType]::ParameterName, 'Marker grammar (default kb; id for agentfootprint input)')
            [CompletionResult]::new('--marker-regex', '--marker-regex', [CompletionResultType]::ParameterName, 'A custom marker regex with exactly one capture group holding the chunk index')
            [CompletionResult]::new('--marker-base', '--marker-base', [CompletionResultType]::ParameterName, 'Index base of --marker-regex captures')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'Write only the units a judge must decide (cited sentences with the text of the chunks they cite, hinted ones first), in the input this judge loads; what the log decides is left out and counted on standard error')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Make the first invalid line fatal (exit 3)')
            [CompletionResult]::new('--no-dedupe', '--no-dedupe', [CompletionResultType]::ParameterName, 'Keep repeated turn ids instead of counting them as duplicates')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Match --grep with case, even for an all-lower-case pattern')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Match --grep with case, even for an all-lower-case pattern')
            [CompletionResult]::new('--show-text', '--show-text', [CompletionResultType]::ParameterName, 'Include the free text the log carries (question, injected chunk text, model outputs, reply); without it records hold ids, scores, lengths and statuses only')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'grounding-audit;convert' {
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Lines longer than this are invalid lines (not read into memory)')
            [CompletionResult]::new('--max-document-bytes', '--max-document-bytes', [CompletionResultType]::ParameterName, 'A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it')
            [CompletionResult]::new('--input-format', '--input-format', [CompletionResultType]::ParameterName, 'Input dialect; `auto` decides per file from its first bytes')
            [CompletionResult]::new('--retrievals', '--retrievals', [CompletionResultType]::ParameterName, 'Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call''s input (else the last retrieval), the last one before the answer, or all of them in start order')
            [CompletionResult]::new('--assembly-window', '--assembly-window', [CompletionResultType]::ParameterName, 'Records (spans, events) read without one of a trace''s or run''s own before it is assembled; bounds memory by the traces still open')
            [CompletionResult]::new('--agent-name', '--agent-name', [CompletionResultType]::ParameterName, 'Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it')
            [CompletionResult]::new('--map', '--map', [CompletionResultType]::ParameterName, 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1')
            [CompletionResult]::new('--map-file', '--map-file', [CompletionResultType]::ParameterName, 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it')
            [CompletionResult]::new('--markers', '--markers', [CompletionResultType]::ParameterName, 'Marker grammar (default kb; id for agentfootprint input)')
            [CompletionResult]::new('--marker-regex', '--marker-regex', [CompletionResultType]::ParameterName, 'A custom marker regex with exactly one capture group holding the chunk index')
            [CompletionResult]::new('--marker-base', '--marker-base', [CompletionResultType]::ParameterName, 'Index base of --marker-regex captures')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Make the first invalid line fatal (exit 3)')
            [CompletionResult]::new('--no-dedupe', '--no-dedupe', [CompletionResultType]::ParameterName, 'Keep repeated turn ids instead of counting them as duplicates')
            [CompletionResult]::new('--skip-unaddressable', '--skip-unaddressable', [CompletionResultType]::ParameterName, 'Write back the turns whose span, observation or run can be addressed and warn with the count of the others (by default one that cannot be addressed is an error, exit 3, and nothing is written)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'grounding-audit;inspect' {
            [CompletionResult]::new('--sample', '--sample', [CompletionResultType]::ParameterName, 'Records read from each file unless --all')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--map', '--map', [CompletionResultType]::ParameterName, 'Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1')
            [CompletionResult]::new('--map-file', '--map-file', [CompletionResultType]::ParameterName, 'A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Read every record instead of a sample')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'grounding-audit;completions' {
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'grounding-audit;man' {
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'grounding-audit;merge' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: one of the formats of the command the partials hold (summary: table, json, markdown, csv, html, prometheus; report: table, csv, json, jsonl, markdown; check: text, json, junit, github, markdown). Default: that command''s')
            [CompletionResult]::new('--section', '--section', [CompletionResultType]::ParameterName, 'Summary, with --format csv: which table to print (default: groups)')
            [CompletionResult]::new('--show-tz', '--show-tz', [CompletionResultType]::ParameterName, 'How times are printed: local (in the partials'' --tz zone) or utc. Default: local when the partials were made with a zone other than UTC, as one pass prints them')
            [CompletionResult]::new('--columns', '--columns', [CompletionResultType]::ParameterName, 'Report: table, Markdown and CSV columns, in this order (as `report --columns`)')
            [CompletionResult]::new('--min-rate', '--min-rate', [CompletionResultType]::ParameterName, 'The grounded rate (grounded / with_retrieval) must be at least R (0..1).')
            [CompletionResult]::new('--max-drop', '--max-drop', [CompletionResultType]::ParameterName, 'The grounded rate may fall by at most D against --baseline (0..1).')
            [CompletionResult]::new('--max-orphans', '--max-orphans', [CompletionResultType]::ParameterName, 'At most N orphan_marker turns.')
            [CompletionResult]::new('--max-orphan-rate', '--max-orphan-rate', [CompletionResultType]::ParameterName, 'At most this share of answered turns may be orphan_marker (0..1).')
            [CompletionResult]::new('--max-unobserved-rate', '--max-unobserved-rate', [CompletionResultType]::ParameterName, 'At most this share of turns may have no observed answer (0..1).')
            [CompletionResult]::new('--max-fabricated-quotes', '--max-fabricated-quotes', [CompletionResultType]::ParameterName, 'At most N fabricated quotes: quoted text that no retrieved chunk holds, even in pieces.')
            [CompletionResult]::new('--min-coverage', '--min-coverage', [CompletionResultType]::ParameterName, 'Citation coverage (sentences of the answers carrying a citation that resolves / sentences) must be at least R (0..1); with --per-agent, each agent''s too.')
            [CompletionResult]::new('--min-turns', '--min-turns', [CompletionResultType]::ParameterName, 'Fewer turns with retrieval than N is not enough evidence (fails overall; agents are not gated) [default: 1]')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Gate on intervals at this confidence (e.g. 0.95): a rate fails only when its Wilson upper bound is below --min-rate; a drop only when significant')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'A saved `summary --format json` document to compare against (see --max-drop)')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Write this run''s `summary --format json` document to FILE, for a later --baseline')
            [CompletionResult]::new('--policy', '--policy', [CompletionResultType]::ParameterName, 'Gates from a TOML file: [defaults] and [agents.<id>] tables of min_rate, max_drop, max_orphans, max_orphan_rate, max_unobserved_rate, max_fabricated_quotes, min_coverage, min_turns, confidence, require_proof (implies --per-agent; flags given on the command line win over [defaults])')
            [CompletionResult]::new('--max-invalid', '--max-invalid', [CompletionResultType]::ParameterName, 'Invalid input lines above N fail the run with exit 3')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the document to FILE; the decision line then goes to stdout')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write JUnit XML to FILE')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Also write the JSON document to FILE')
            [CompletionResult]::new('--markdown', '--markdown', [CompletionResultType]::ParameterName, 'Also write the Markdown table to FILE')
            [CompletionResult]::new('--html', '--html', [CompletionResultType]::ParameterName, 'Also write the HTML summary report of this run to FILE (its trend marks --min-rate)')
            [CompletionResult]::new('--triage-order', '--triage-order', [CompletionResultType]::ParameterName, 'Order of the triage list (as `summary --triage-order`): of the HTML report and the baseline (`check`), of every format (`merge` of summary partials)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads (default: all cores)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour tables')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'Summary and report, CSV: no spreadsheet-formula escaping')
            [CompletionResult]::new('--per-agent', '--per-agent', [CompletionResultType]::ParameterName, 'Apply the rate gates (--min-rate, --max-drop, --max-orphan-rate) to each agent as well as overall')
            [CompletionResult]::new('--require-proof', '--require-proof', [CompletionResultType]::ParameterName, 'With --confidence: the Wilson lower bound must clear --min-rate (the stricter rule, for regulated agents)')
            [CompletionResult]::new('--ratchet', '--ratchet', [CompletionResultType]::ParameterName, 'With --write-baseline: write it only when every gate passed, keeping overall and per agent the better of the old baseline (--baseline, else the file written) and this run, so the baseline only moves up. A --baseline that is the file written and does not exist yet is the first night: no drop is gated, and the run starts the baseline')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Pass (with a warning) when no turn had retrieval')
            [CompletionResult]::new('--github', '--github', [CompletionResultType]::ParameterName, 'Also print GitHub workflow commands (and append the job summary to $GITHUB_STEP_SUMMARY when set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide the progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'grounding-audit;help' {
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Grade turns and list them one page at a time, newest first')
            [CompletionResult]::new('summary', 'summary', [CompletionResultType]::ParameterValue, 'Roll up every matching turn: totals, per agent, daily trend, triage list')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Gate a CI pipeline on the grounded rate (exit 1 when a gate fails)')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show one turn''s full audit: chunks, markers, tools, telemetry')
            [CompletionResult]::new('evidence', 'evidence', [CompletionResultType]::ParameterValue, 'Print one JSON evidence record per turn (free text only with --show-text)')
            [CompletionResult]::new('convert', 'convert', [CompletionResultType]::ParameterValue, 'Convert any log to the native turn log, or write verdicts back as OTel evaluation events, Phoenix span annotations, Langfuse scores or LangSmith feedback')
            [CompletionResult]::new('inspect', 'inspect', [CompletionResultType]::ParameterValue, 'Say what a file is before grading it: format, field coverage, the map that reads it (try one with --map, --set, --map-file), marker grammar, and a command line that grades it')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff; e.g. `grounding-audit man > ~/.local/share/man/man1/grounding-audit.1`)')
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'Render summary, report or check from partials (`--partial`), as one pass over all their input')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'grounding-audit;help;report' {
            break
        }
        'grounding-audit;help;summary' {
            break
        }
        'grounding-audit;help;check' {
            break
        }
        'grounding-audit;help;explain' {
            break
        }
        'grounding-audit;help;evidence' {
            break
        }
        'grounding-audit;help;convert' {
            break
        }
        'grounding-audit;help;inspect' {
            break
        }
        'grounding-audit;help;completions' {
            break
        }
        'grounding-audit;help;man' {
            break
        }
        'grounding-audit;help;merge' {
            break
        }
        'grounding-audit;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

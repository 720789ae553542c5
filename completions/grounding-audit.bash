_grounding__audit() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="grounding__audit"
                ;;
            grounding__audit,check)
                cmd="grounding__audit__subcmd__check"
                ;;
            grounding__audit,completions)
                cmd="grounding__audit__subcmd__completions"
                ;;
            grounding__audit,convert)
                cmd="grounding__audit__subcmd__convert"
                ;;
            grounding__audit,evidence)
                cmd="grounding__audit__subcmd__evidence"
                ;;
            grounding__audit,explain)
                cmd="grounding__audit__subcmd__explain"
                ;;
            grounding__audit,help)
                cmd="grounding__audit__subcmd__help"
                ;;
            grounding__audit,inspect)
                cmd="grounding__audit__subcmd__inspect"
                ;;
            grounding__audit,man)
                cmd="grounding__audit__subcmd__man"
                ;;
            grounding__audit,merge)
                cmd="grounding__audit__subcmd__merge"
                ;;
            grounding__audit,report)
                cmd="grounding__audit__subcmd__report"
                ;;
            grounding__audit,summary)
                cmd="grounding__audit__subcmd__summary"
                ;;
            grounding__audit__subcmd__help,check)
                cmd="grounding__audit__subcmd__help__subcmd__check"
                ;;
            grounding__audit__subcmd__help,completions)
                cmd="grounding__audit__subcmd__help__subcmd__completions"
                ;;
            grounding__audit__subcmd__help,convert)
                cmd="grounding__audit__subcmd__help__subcmd__convert"
                ;;
            grounding__audit__subcmd__help,evidence)
                cmd="grounding__audit__subcmd__help__subcmd__evidence"
                ;;
            grounding__audit__subcmd__help,explain)
                cmd="grounding__audit__subcmd__help__subcmd__explain"
                ;;
            grounding__audit__subcmd__help,help)
                cmd="grounding__audit__subcmd__help__subcmd__help"
                ;;
            grounding__audit__subcmd__help,inspect)
                cmd="grounding__audit__subcmd__help__subcmd__inspect"
                ;;
            grounding__audit__subcmd__help,man)
                cmd="grounding__audit__subcmd__help__subcmd__man"
                ;;
            grounding__audit__subcmd__help,merge)
                cmd="grounding__audit__subcmd__help__subcmd__merge"
                ;;
            grounding__audit__subcmd__help,report)
                cmd="grounding__audit__subcmd__help__subcmd__report"
                ;;
            grounding__audit__subcmd__help,summary)
                cmd="grounding__audit__subcmd__help__subcmd__summary"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        grounding__audit)
            opts="-q -h -V --quiet --threads --color --help --version report summary check explain evidence convert inspect completions man merge help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__check)
            opts="-s -q -h --format --partial --min-rate --max-drop --max-orphans --max-orphan-rate --max-unobserved-rate --max-fabricated-quotes --min-coverage --per-agent --min-turns --confidence --require-proof --baseline --write-baseline --ratchet --policy --max-invalid --allow-empty --output --junit --json --markdown --html --triage-order --github --strict --no-dedupe --max-line-bytes --max-document-bytes --input-format --retrievals --assembly-window --agent-name --map --set --map-file --from --to --since --now --agent --channel --model --turn --conversation --grep --case-sensitive --cited-below --confidence-below --tz --show-tz --markers --marker-regex --marker-base --quiet --threads --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "text json junit github markdown" -- "${cur}"))
                    return 0
                    ;;
                --partial)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-drop)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-orphans)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-orphan-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-unobserved-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-fabricated-quotes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-coverage)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-turns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --baseline)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --write-baseline)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-invalid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --junit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markdown)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --html)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-order)
                    COMPREPLY=($(compgen -W "severity recent" -- "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-document-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -W "auto agentfootprint otlp phoenix-otlp datadog phoenix-dataframe phoenix-jsonl trulens-events otel-sdk-json langsmith langfuse exchange adk braintrust turns" -- "${cur}"))
                    return 0
                    ;;
                --retrievals)
                    COMPREPLY=($(compgen -W "prompt last all" -- "${cur}"))
                    return 0
                    ;;
                --assembly-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --turn)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --conversation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cited-below)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence-below)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tz)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --show-tz)
                    COMPREPLY=($(compgen -W "local utc" -- "${cur}"))
                    return 0
                    ;;
                --markers)
                    COMPREPLY=($(compgen -W "kb numeric doc footnote id" -- "${cur}"))
                    return 0
                    ;;
                --marker-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --marker-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__completions)
            opts="-q -h --quiet --threads --color --help bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__convert)
            opts="-q -h --strict --no-dedupe --max-line-bytes --max-document-bytes --input-format --retrievals --assembly-window --agent-name --map --set --map-file --markers --marker-regex --marker-base --to --skip-unaddressable --quiet --threads --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-document-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -W "auto agentfootprint otlp phoenix-otlp datadog phoenix-dataframe phoenix-jsonl trulens-events otel-sdk-json langsmith langfuse exchange adk braintrust turns" -- "${cur}"))
                    return 0
                    ;;
                --retrievals)
                    COMPREPLY=($(compgen -W "prompt last all" -- "${cur}"))
                    return 0
                    ;;
                --assembly-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markers)
                    COMPREPLY=($(compgen -W "kb numeric doc footnote id" -- "${cur}"))
                    return 0
                    ;;
                --marker-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --marker-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -W "turns otel-eval phoenix-annotations langfuse-scores langsmith-feedback" -- "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__evidence)
            opts="-s -q -h --strict --no-dedupe --max-line-bytes --max-document-bytes --input-format --retrievals --assembly-window --agent-name --map --set --map-file --from --to --since --now --agent --channel --model --turn --conversation --grep --case-sensitive --cited-below --confidence-below --tz --show-tz --markers --marker-regex --marker-base --show-text --for --quiet --threads --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-document-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -W "auto agentfootprint otlp phoenix-otlp datadog phoenix-dataframe phoenix-jsonl trulens-events otel-sdk-json langsmith langfuse exchange adk braintrust turns" -- "${cur}"))
                    return 0
                    ;;
                --retrievals)
                    COMPREPLY=($(compgen -W "prompt last all" -- "${cur}"))
                    return 0
                    ;;
                --assembly-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --turn)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --conversation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cited-below)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence-below)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tz)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --show-tz)
                    COMPREPLY=($(compgen -W "local utc" -- "${cur}"))
                    return 0
                    ;;
                --markers)
                    COMPREPLY=($(compgen -W "kb numeric doc footnote id" -- "${cur}"))
                    return 0
                    ;;
                --marker-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --marker-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --for)
                    COMPREPLY=($(compgen -W "ragas deepeval promptfoo" -- "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__explain)
            opts="-q -h --strict --no-dedupe --max-line-bytes --max-document-bytes --input-format --retrievals --assembly-window --agent-name --map --set --map-file --markers --marker-regex --marker-base --show-text --show-tools --low-score --tz --show-tz --format --quiet --threads --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-document-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -W "auto agentfootprint otlp phoenix-otlp datadog phoenix-dataframe phoenix-jsonl trulens-events otel-sdk-json langsmith langfuse exchange adk braintrust turns" -- "${cur}"))
                    return 0
                    ;;
                --retrievals)
                    COMPREPLY=($(compgen -W "prompt last all" -- "${cur}"))
                    return 0
                    ;;
                --assembly-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markers)
                    COMPREPLY=($(compgen -W "kb numeric doc footnote id" -- "${cur}"))
                    return 0
                    ;;
                --marker-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --marker-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --low-score)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tz)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --show-tz)
                    COMPREPLY=($(compgen -W "local utc" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help)
            opts="report summary check explain evidence convert inspect completions man merge help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__check)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__convert)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__evidence)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__explain)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__inspect)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__merge)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__report)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__help__subcmd__summary)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__inspect)
            opts="-q -h --all --sample --format --map --set --map-file --quiet --threads --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --sample)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__man)
            opts="-q -h --quiet --threads --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__merge)
            opts="-q -h --format --section --csv-raw --show-tz --columns --min-rate --max-drop --max-orphans --max-orphan-rate --max-unobserved-rate --max-fabricated-quotes --min-coverage --per-agent --min-turns --confidence --require-proof --baseline --write-baseline --ratchet --policy --max-invalid --allow-empty --output --junit --json --markdown --html --triage-order --github --quiet --threads --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table json markdown csv html prometheus jsonl text junit github" -- "${cur}"))
                    return 0
                    ;;
                --section)
                    COMPREPLY=($(compgen -W "groups days group-days triage guardrail scores compare evidence" -- "${cur}"))
                    return 0
                    ;;
                --show-tz)
                    COMPREPLY=($(compgen -W "local utc" -- "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -W "turn_id agent_id conversation_id channel created_at verdict partial cited_chunks marker_count out_of_range_markers malformed_markers markers_from chunk_count confidence document_ids chunk_ids scores tool_calls tool_errors model tokens_used cost_cents latency_ms unobserved_reason sentences cited_sentences coverage quotes_exact quotes_normalised quotes_absent offsets_mismatched hints unchecked cited_documents quotes_misattributed quotes_stitched quotes_fabricated evidence" -- "${cur}"))
                    return 0
                    ;;
                --min-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-drop)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-orphans)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-orphan-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-unobserved-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-fabricated-quotes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-coverage)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-turns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --baseline)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --write-baseline)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-invalid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --junit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --markdown)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --html)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-order)
                    COMPREPLY=($(compgen -W "severity recent" -- "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__report)
            opts="-s -q -h --verdict --would-block --limit --cursor --all --format --csv-raw --columns --partial --strict --no-dedupe --max-line-bytes --max-document-bytes --input-format --retrievals --assembly-window --agent-name --map --set --map-file --from --to --since --now --agent --channel --model --turn --conversation --grep --case-sensitive --cited-below --confidence-below --tz --show-tz --markers --marker-regex --marker-base --quiet --threads --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --verdict)
                    COMPREPLY=($(compgen -W "ok no_marker orphan_marker empty_retrieval unobserved" -- "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cursor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table csv json jsonl markdown" -- "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -W "turn_id agent_id conversation_id channel created_at verdict partial cited_chunks marker_count out_of_range_markers malformed_markers markers_from chunk_count confidence document_ids chunk_ids scores tool_calls tool_errors model tokens_used cost_cents latency_ms unobserved_reason sentences cited_sentences coverage quotes_exact quotes_normalised quotes_absent offsets_mismatched hints unchecked cited_documents quotes_misattributed quotes_stitched quotes_fabricated evidence" -- "${cur}"))
                    return 0
                    ;;
                --partial)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-document-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -W "auto agentfootprint otlp phoenix-otlp datadog phoenix-dataframe phoenix-jsonl trulens-events otel-sdk-json langsmith langfuse exchange adk braintrust turns" -- "${cur}"))
                    return 0
                    ;;
                --retrievals)
                    COMPREPLY=($(compgen -W "prompt last all" -- "${cur}"))
                    return 0
                    ;;
                --assembly-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --turn)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --conversation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cited-below)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence-below)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tz)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --show-tz)
                    COMPREPLY=($(compgen -W "local utc" -- "${cur}"))
                    return 0
                    ;;
                --markers)
                    COMPREPLY=($(compgen -W "kb numeric doc footnote id" -- "${cur}"))
                    return 0
                    ;;
                --marker-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --marker-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        grounding__subcmd__audit__subcmd__summary)
            opts="-s -q -h --by --triage --triage-order --low-score --bucket --compare --compare-from --compare-to --compare-previous --confidence --format --section --csv-raw --html --min-rate --partial --strict --no-dedupe --max-line-bytes --max-document-bytes --input-format --retrievals --assembly-window --agent-name --map --set --map-file --from --to --since --now --agent --channel --model --turn --conversation --grep --case-sensitive --cited-below --confidence-below --tz --show-tz --markers --marker-regex --marker-base --quiet --threads --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --by)
                    COMPREPLY=($(compgen -W "agent channel model" -- "${cur}"))
                    return 0
                    ;;
                --triage)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-order)
                    COMPREPLY=($(compgen -W "severity recent" -- "${cur}"))
                    return 0
                    ;;
                --low-score)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bucket)
                    COMPREPLY=($(compgen -W "hour day week" -- "${cur}"))
                    return 0
                    ;;
                --compare)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compare-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compare-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json markdown csv html prometheus" -- "${cur}"))
                    return 0
                    ;;
                --section)
                    COMPREPLY=($(compgen -W "groups days group-days triage guardrail scores compare evidence" -- "${cur}"))
                    return 0
                    ;;
                --html)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --partial)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-document-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -W "auto agentfootprint otlp phoenix-otlp datadog phoenix-dataframe phoenix-jsonl trulens-events otel-sdk-json langsmith langfuse exchange adk braintrust turns" -- "${cur}"))
                    return 0
                    ;;
                --retrievals)
                    COMPREPLY=($(compgen -W "prompt last all" -- "${cur}"))
                    return 0
                    ;;
                --assembly-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --turn)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --conversation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cited-below)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence-below)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tz)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --show-tz)
                    COMPREPLY=($(compgen -W "local utc" -- "${cur}"))
                    return 0
                    ;;
                --markers)
                    COMPREPLY=($(compgen -W "kb numeric doc footnote id" -- "${cur}"))
                    return 0
                    ;;
                --marker-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --marker-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _grounding__audit -o nosort -o bashdefault -o default grounding-audit
else
    complete -F _grounding__audit -o bashdefault -o default grounding-audit
fi

//! Parse, then resolve: turns the plain clap structs into the settings the
//! commands use. This is the one place that looks at the environment
//! (terminals, `NO_COLOR`, `TERM`, `CI`, `GITHUB_ACTIONS`, `GROUNDING_AUDIT_TZ`, the clock for
//! `--since`) and validates option combinations.

use crate::cli::{ColorChoice, FilterArgs, Given, InputArgs, MapArgs, MarkerArgs, ZoneArgs};
use crate::exit;
use crate::filter::{Filter, Zone, parse_bound, parse_span};
use crate::input::{self, Source};
use crate::markers::Grammar;
use crate::pipeline::Engine;
use crate::render::Clock;
use anyhow::Result;
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use std::io::IsTerminal;

pub mod check;
pub mod evidence;
pub mod explain;
pub mod gates;
pub mod recorded;
pub mod report;
pub mod summary;

/// Process-wide settings, resolved once.
#[derive(Debug, Clone)]
pub struct Settings {
    pub threads: usize,
    /// Colour tables.
    pub color: bool,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// Stdout is a terminal.
    pub stdout_tty: bool,
    /// Stdin is a terminal.
    pub stdin_tty: bool,
    /// `GITHUB_STEP_SUMMARY`, for `check --format github`.
    pub github_step_summary: Option<std::path::PathBuf>,
    /// `GITHUB_ACTIONS=true`: the runner reads stdout for workflow commands.
    pub actions: bool,
}

impl Settings {
    /// Resolves the global flags against the environment.
    pub fn resolve(quiet: bool, threads: Option<u16>, color: ColorChoice) -> Settings {
        let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        let stdout_tty = std::io::stdout().is_terminal();
        let color = match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                stdout_tty && env("NO_COLOR").is_none() && env("TERM").is_none_or(|t| t != "dumb")
            }
        };
        let in_ci = env("CI").is_some_and(|v| v != "false" && v != "0");
        Settings {
            threads: threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                |t| t as usize,
            ),
            color,
            progress: !quiet && !in_ci && std::io::stderr().is_terminal(),
            stdout_tty,
            stdin_tty: std::io::stdin().is_terminal(),
            github_step_summary: env("GITHUB_STEP_SUMMARY").map(Into::into),
            actions: crate::render::guard::under_actions(
                std::env::var(crate::render::guard::ENV).ok().as_deref(),
            ),
        }
    }

    /// Plain settings for tests: one thread, no colour, no progress.
    pub fn plain() -> Settings {
        Settings {
            threads: 1,
            color: false,
            progress: false,
            stdout_tty: false,
            stdin_tty: false,
            github_step_summary: None,
            actions: false,
        }
    }

    /// A progress bar over `total` bytes, or None when progress is off.
    pub fn progress_bar(&self, total: Option<u64>) -> Option<indicatif::ProgressBar> {
        if !self.progress {
            return None;
        }
        let bar = indicatif::ProgressBar::with_draw_target(
            total,
            indicatif::ProgressDrawTarget::stderr(),
        );
        let style = indicatif::ProgressStyle::with_template(
            "{spinner} {bytes}/{total_bytes} {bytes_per_sec} {wide_bar} {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        bar.set_style(style);
        Some(bar)
    }
}

/// Resolves the marker flags into a grammar; None when none was given.
pub fn grammar(m: &MarkerArgs) -> Result<Option<Grammar>> {
    match (&m.markers, &m.marker_regex) {
        (Some(_), Some(_)) => Err(exit::usage(
            "--markers and --marker-regex cannot be used together",
        )),
        (Some(p), None) => Ok(Some(Grammar::Preset(*p))),
        (None, Some(re)) => Grammar::regex(re, m.marker_base)
            .map(Some)
            .map_err(exit::usage),
        (None, None) => Ok(None),
    }
}

/// The variable that gives the default `--tz`.
pub const TZ_ENV: &str = "GROUNDING_AUDIT_TZ";

/// Resolves `--tz`, else `$GROUNDING_AUDIT_TZ`, else UTC.
pub fn zone(z: &ZoneArgs) -> Result<Zone> {
    zone_from(z.tz.as_deref(), std::env::var(TZ_ENV).ok().as_deref())
}

/// [`zone`] with the environment passed in (tests).
pub fn zone_from(flag: Option<&str>, env: Option<&str>) -> Result<Zone> {
    match (flag, env.filter(|e| !e.trim().is_empty())) {
        (Some(f), _) => Zone::parse(f).map_err(|e| exit::usage(format!("--tz: {e}"))),
        (None, Some(e)) => Zone::parse(e).map_err(|m| exit::usage(format!("{TZ_ENV}: {m}"))),
        (None, None) => Ok(Zone::utc()),
    }
}

/// How times are shown: in the zone the run filters and groups in, when
/// one other than UTC is given, unless `--show-tz utc`; in UTC otherwise,
/// unless `--show-tz local`. A reader who asked for Tokyo days reads Tokyo
/// times.
pub fn clock(z: &ZoneArgs) -> Result<Clock> {
    let zone = zone(z)?;
    let local = match z.show_tz {
        Some(crate::cli::ShowTz::Local) => true,
        Some(crate::cli::ShowTz::Utc) => false,
        None => !zone.is_utc(),
    };
    Ok(Clock { zone, local })
}

/// The flags of `report` that change only what is rendered: a partial run
/// refuses them, `merge` takes them.
pub const REPORT_RENDERED: &[&str] = &["--format", "--csv-raw", "--columns", "--show-tz"];

/// What `--partial` needs of a run: a window that is the same on every
/// machine, and no flag that only changes rendering (the partial holds
/// state; `merge` renders). `render` lists the command's rendering flags;
/// one of them given on the command line (`given`, from clap's value
/// sources: `--format table` is given, though it is the default) is
/// refused.
pub fn partial_run(command: &str, f: &FilterArgs, given: &Given, render: &[&str]) -> Result<()> {
    if f.since.is_some() && f.now.is_none() {
        return Err(exit::usage(format!(
            "{command} --partial with --since needs --now TIME: each machine would count back from its own clock, and partials of different windows never merge (give every partition the same --now)"
        )));
    }
    match render.iter().find(|flag| given.flag(flag)) {
        None => Ok(()),
        Some(flag) => Err(exit::usage(format!(
            "{command} --partial writes the run's state only, and {flag} changes only what is rendered: give it to `grounding-audit merge`, which renders"
        ))),
    }
}

/// Resolves the filter flags (the clock is read here, once, for `--since`,
/// to the whole second: a window's bounds print as the times a user types).
pub fn filter(f: &FilterArgs) -> Result<Filter> {
    use chrono::SubsecRound;
    filter_at(f, zone(&f.zone)?, Utc::now().trunc_subsecs(0))
}

/// [`filter`] with the zone and the current time passed in.
pub fn filter_at(f: &FilterArgs, zone: Zone, clock_now: DateTime<Utc>) -> Result<Filter> {
    let bound = |name: &str, v: &Option<String>| -> Result<_> {
        v.as_deref()
            .map(|s| parse_bound(s, &zone))
            .transpose()
            .map_err(|e| exit::usage(format!("--{name}: {e}")))
    };
    if f.now.is_some() && f.since.is_none() {
        // Taken alone it would be ignored: refuse it rather than guess.
        return Err(exit::usage(
            "--now is the time --since counts back from: give --since SPAN with it, or end a --from window with --to TIME",
        ));
    }
    let mut from = bound("from", &f.from)?;
    let mut to = bound("to", &f.to)?;
    if let Some(span) = &f.since {
        let span = parse_span(span).map_err(|e| exit::usage(format!("--since: {e}")))?;
        let given = bound("now", &f.now)?;
        // An explicit --now ends the window there too (a run replayed
        // later sees the same turns); the real clock does not, so a turn
        // stamped a moment ahead of this machine is still listed.
        if to.is_none() {
            to = given;
        }
        let now = given.unwrap_or(clock_now);
        from = Some(now.checked_sub_signed(span).ok_or_else(|| {
            exit::usage("--since reaches back further than any time can be written")
        })?);
    }
    if let (Some(a), Some(b)) = (from, to)
        && a >= b
    {
        return Err(exit::usage(format!(
            "--from must be earlier than --to (they are {} and {} in UTC)",
            crate::model::format_time(&a),
            crate::model::format_time(&b)
        )));
    }
    let score = |name: &str, v: Option<f64>| -> Result<Option<f64>> {
        match v {
            Some(x) if !x.is_finite() => Err(exit::usage(format!("--{name} must be a number"))),
            v => Ok(v),
        }
    };
    let grep = f
        .grep
        .as_deref()
        .map(|re| {
            regex::RegexBuilder::new(re)
                .case_insensitive(!f.case_sensitive && !crate::filter::has_upper(re))
                .build()
                .map_err(|e| exit::usage(format!("--grep: not a regex: {e}")))
        })
        .transpose()?;
    Ok(Filter {
        from,
        to,
        agents: f.agent.clone(),
        channels: f.channel.clone(),
        models: f.model.clone(),
        turn_ids: f.turn.clone(),
        conversations: f.conversation.clone(),
        grep,
        verdicts: Vec::new(),
        cited_below: score("cited-below", f.cited_below)?,
        confidence_below: score("confidence-below", f.confidence_below)?,
        would_block: false,
    })
}

/// Resolves input, filter and marker flags into an engine.
pub fn engine(
    settings: &Settings,
    input: &InputArgs,
    filter: Filter,
    markers: &MarkerArgs,
) -> Result<Engine> {
    let chosen = grammar(markers)?;
    if input.max_line_bytes == 0 {
        return Err(exit::usage("--max-line-bytes must be at least 1"));
    }
    Ok(Engine {
        markers: chosen,
        filter,
        dedupe: !input.no_dedupe,
        threads: settings.threads,
        max_line: input.max_line_bytes,
        max_document: input.max_document_bytes,
        strict: input.strict,
        input_format: input_format(input),
        assembly_window: input.assembly_window,
        map: field_map(&input.maps)?,
        assemble: crate::dialect::AssembleOptions {
            agent_name: input.agent_name.clone(),
            retrievals: match input.retrievals {
                crate::cli::Retrievals::Prompt => crate::dialect::ChunkRule::Prompt,
                crate::cli::Retrievals::Last => crate::dialect::ChunkRule::Last,
                crate::cli::Retrievals::All => crate::dialect::ChunkRule::All,
            },
        },
        require_turns: true,
        ..Engine::default()
    })
}

/// The mapped dialect of `--map-file`, `--map` and `--set`, or None when none is given.
pub fn field_map(input: &MapArgs) -> Result<Option<&'static crate::dialect::mapped::Mapped>> {
    let map = map_args(input)?;
    if map.is_empty() {
        return Ok(None);
    }
    let mapped = crate::dialect::mapped::Mapped::new(map).map_err(exit::usage)?;
    // Made once per run, like the built-in dialects it stands beside.
    Ok(Some(Box::leak(Box::new(mapped))))
}

/// The field map of `--map-file`, then `--map` and `--set` (a flag
/// overrides the file), checked but not compiled.
pub fn map_args(input: &MapArgs) -> Result<crate::dialect::mapped::FieldMap> {
    let mut map = crate::dialect::mapped::FieldMap::default();
    if let Some(path) = &input.map_file {
        // A file named by a flag that cannot be read is an input error.
        let text = std::fs::read_to_string(path)
            .map_err(|e| exit::input(format!("--map-file {}: {e}", path.display())))?;
        map.read_file(&text)
            .map_err(|e| exit::usage(format!("--map-file {}: {e}", path.display())))?;
    }
    for arg in &input.map {
        map.set_arg(arg).map_err(exit::usage)?;
    }
    for arg in &input.set {
        map.set_constant_arg(arg).map_err(exit::usage)?;
    }
    Ok(map)
}

/// The dialect `--input-format` forces; None for `auto`.
pub fn input_format(input: &InputArgs) -> Option<&'static dyn crate::dialect::Dialect> {
    crate::dialect::by_name(&input.input_format)
}

/// The engine and sources of a command that keeps each turn whole
/// (`explain`, `evidence`, `convert`): the engine's errors, then the
/// inputs', as every command meets them.
pub fn detail_run(
    settings: &Settings,
    input: &InputArgs,
    markers: &MarkerArgs,
    filter: Filter,
    command: &str,
) -> Result<(crate::pipeline::Engine, Vec<Source>)> {
    let mut engine = engine(settings, input, filter, markers)?;
    engine.detail = true;
    let sources = sources(settings, input, command)?;
    Ok((engine, sources))
}

/// Expands the input paths, refusing to wait on a terminal for stdin and
/// reporting files a directory walk passed over. `command` is how the hint
/// spells the subcommand that was run, with any argument before the paths
/// (`summary`, `explain TURN_ID`).
pub fn sources(settings: &Settings, input: &InputArgs, command: &str) -> Result<Vec<Source>> {
    if input.paths.is_empty() && settings.stdin_tty {
        return Err(exit::usage(format!(
            "no input: pass turn-log files or directories (grounding-audit {command} logs/), or pipe a log on stdin (… | grounding-audit {command} -)"
        )));
    }
    let expanded = input::expand(&input.paths, &reads_by_content)?;
    if let Some(note) = unread_note(&expanded.ignored) {
        crate::pipeline::warn(None, &note);
    }
    Ok(expanded.sources)
}

/// Whether a document a directory walk found holds a log by its content:
/// its first block is a format the tool recognises other than the native
/// turn log (a Langfuse trace download, an OTLP or LangSmith export, a HAR
/// recording…), so a `package.json` or a settings file beside the exports
/// is passed over, not read as a log and refused.
pub fn reads_by_content(source: &Source) -> bool {
    use crate::dialect::Dialect;
    let native = crate::dialect::native::NATIVE.name();
    input::head(source, 64 << 10)
        .is_some_and(|head| crate::dialect::detect(None, &head).name() != native)
}

/// One note for the files a directory walk passed over: the file itself
/// when there is one, else the count and the first three names (a folder
/// of 124 other files is one line, not 124).
fn unread_note(ignored: &[std::path::PathBuf]) -> Option<String> {
    const WHY: &str =
        "not a *.jsonl, *.ndjson or *.parquet file, plain or .gz/.zst, nor a *.json trace export";
    match ignored {
        [] => None,
        [one] => Some(format!("note: {}: not read ({WHY})", one.display())),
        many => {
            let names: Vec<String> = many
                .iter()
                .take(3)
                .map(|p| p.display().to_string())
                .collect();
            let more = match many.len() - names.len() {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            Some(format!(
                "note: {} files not read ({WHY}): {}{more}",
                many.len(),
                names.join(", ")
            ))
        }
    }
}

/// The variable that pins the time a report says it was generated (the
/// reproducible-builds convention: seconds since the Unix epoch).
pub const SOURCE_DATE_EPOCH: &str = "SOURCE_DATE_EPOCH";

/// When a report is generated: `$SOURCE_DATE_EPOCH` when set, else the clock.
pub fn generated_at() -> Result<DateTime<Utc>> {
    match std::env::var(SOURCE_DATE_EPOCH) {
        Ok(v) if !v.trim().is_empty() => v
            .trim()
            .parse::<i64>()
            .ok()
            .and_then(|s| DateTime::from_timestamp(s, 0))
            .ok_or_else(|| {
                exit::usage(format!(
                    "{SOURCE_DATE_EPOCH}: expected seconds since 1970-01-01, got {v:?}"
                ))
            }),
        _ => Ok(Utc::now()),
    }
}

/// The options every partial records: each flag that changes which turns
/// are read or how they are graded, by flag name. Time bounds are recorded
/// resolved (`--since 7d` means different instants on different days).
pub fn run_options(
    input: &InputArgs,
    filter: &FilterArgs,
    markers: &MarkerArgs,
    engine: &Engine,
) -> BTreeMap<String, String> {
    let i = input;
    let time = |t: Option<chrono::DateTime<chrono::Utc>>| {
        t.map_or_else(|| "-".to_owned(), |t| crate::model::format_time(&t))
    };
    [
        ("--input-format", i.input_format.clone()),
        ("--no-dedupe", i.no_dedupe.to_string()),
        ("--strict", i.strict.to_string()),
        ("--max-line-bytes", i.max_line_bytes.to_string()),
        ("--retrievals", value_name(&i.retrievals)),
        ("--assembly-window", i.assembly_window.to_string()),
        ("--markers", markers_text(markers)),
        ("--from", time(engine.filter.from)),
        ("--to", time(engine.filter.to)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .chain(
        listed(input, filter)
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_string())),
    )
    .collect()
}

/// The settings given as lists or optional values, by flag, as JSON: a
/// list is `[]` or `["a","b"]`, an absent value `null`. Spelled by JSON, not
/// by how Rust prints its types, so what a stored baseline or partial says
/// does not change with the code.
fn listed(i: &InputArgs, f: &FilterArgs) -> Vec<(&'static str, serde_json::Value)> {
    use serde_json::json;
    vec![
        ("--agent-name", json!(i.agent_name)),
        ("--map", json!(i.maps.map)),
        (
            "--map-file",
            json!(i.maps.map_file.as_ref().map(|p| p.to_string_lossy())),
        ),
        ("--set", json!(i.maps.set)),
        ("--agent", json!(f.agent)),
        ("--channel", json!(f.channel)),
        ("--model", json!(f.model)),
        ("--turn", json!(f.turn)),
        ("--conversation", json!(f.conversation)),
        ("--grep", json!(f.grep)),
        ("--cited-below", json!(f.cited_below)),
        ("--confidence-below", json!(f.confidence_below)),
    ]
}

/// A flag's value by the name the command line gives it (`prompt`).
fn value_name<T: clap::ValueEnum>(v: &T) -> String {
    v.to_possible_value()
        .map_or_else(String::new, |p| p.get_name().to_owned())
}

/// How baselines written before these spellings recorded the same
/// settings (Rust's debug text: `[]`, `None`, `Some("x")`, `Prompt`), so a
/// stored baseline keeps matching the run it was made for.
pub fn legacy_grading(i: &InputArgs, f: &FilterArgs) -> BTreeMap<String, String> {
    [
        ("--retrievals", format!("{:?}", i.retrievals)),
        ("--agent-name", format!("{:?}", i.agent_name)),
        ("--map", format!("{:?}", i.maps.map)),
        ("--map-file", format!("{:?}", i.maps.map_file)),
        ("--set", format!("{:?}", i.maps.set)),
        ("--agent", format!("{:?}", f.agent)),
        ("--channel", format!("{:?}", f.channel)),
        ("--model", format!("{:?}", f.model)),
        ("--turn", format!("{:?}", f.turn)),
        ("--conversation", format!("{:?}", f.conversation)),
        ("--grep", format!("{:?}", f.grep)),
        ("--cited-below", format!("{:?}", f.cited_below)),
        ("--confidence-below", format!("{:?}", f.confidence_below)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

/// The settings a baseline records (`check --write-baseline`) and a later
/// `check --baseline` must match, as typed JSON by flag: those that change
/// how turns are read or graded, and the time zone, but not the time
/// window (a nightly run's window moves by design) nor how strictly input
/// is read. Values are spelled as the command line names them (`prompt`),
/// never as the code names its types.
pub fn grading_settings(
    input: &InputArgs,
    filter: &FilterArgs,
    markers: &MarkerArgs,
    zone: String,
) -> BTreeMap<String, serde_json::Value> {
    use serde_json::json;
    let i = input;
    [
        ("--input-format", json!(i.input_format)),
        ("--no-dedupe", json!(i.no_dedupe)),
        ("--retrievals", json!(value_name(&i.retrievals))),
        ("--assembly-window", json!(i.assembly_window)),
        ("--markers", json!(markers_text(markers))),
        ("--tz", json!(zone)),
    ]
    .into_iter()
    .chain(listed(input, filter))
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

/// What `--markers` records in a partial when no grammar flag is given.
pub const DEFAULT_GRAMMAR: &str = "each input format's default";

/// The marker grammar as a partial records it: the preset, the regex with
/// its index base, or [`DEFAULT_GRAMMAR`].
fn markers_text(m: &MarkerArgs) -> String {
    grammar_flag(m).unwrap_or_else(|| DEFAULT_GRAMMAR.to_owned())
}

/// The grammar the flags set for every input, as reports name it (`numeric`,
/// `regex PATTERN (base N)`); None when no flag is given and each input
/// format's default grammar (or a turn's own `markers` field) decides.
pub fn grammar_flag(m: &MarkerArgs) -> Option<String> {
    match (&m.marker_regex, m.markers) {
        (Some(re), _) => Some(format!("regex {re} (base {})", m.marker_base)),
        (None, Some(p)) => Some(p.name().to_owned()),
        (None, None) => None,
    }
}

/// What the HTML page says about its run besides the view: how the
/// grammar was chosen, inputs, threshold, version, time.
pub fn html_meta(
    input: &InputArgs,
    markers: &MarkerArgs,
    min_rate: Option<f64>,
) -> Result<crate::render::html::Meta> {
    let grammar_args = match (&markers.marker_regex, markers.markers) {
        (Some(re), _) => {
            // `--marker-regex=-x`: a value that reads as a flag stays a value.
            let mut a = if crate::render::shell::flag_like(re) {
                vec![format!("--marker-regex={re}")]
            } else {
                vec!["--marker-regex".to_owned(), re.clone()]
            };
            if markers.marker_base != 1 {
                a.extend(["--marker-base".to_owned(), markers.marker_base.to_string()]);
            }
            a
        }
        (None, Some(p)) => vec!["--markers".to_owned(), p.name().to_owned()],
        (None, None) => vec![],
    };
    let paths = if input.paths.is_empty() {
        vec!["LOGS".to_owned()]
    } else {
        input
            .paths
            .iter()
            .map(|p| p.display().to_string())
            .collect()
    };
    Ok(crate::render::html::Meta {
        generated: crate::model::format_time(&generated_at()?),
        version: env!("CARGO_PKG_VERSION"),
        grammar_flag: grammar_flag(markers),
        grammar_args,
        min_rate,
        paths,
    })
}

//! The command line, as plain data (clap derive). Nothing here decides
//! anything: `config` resolves these structs once into what commands use.

use crate::markers::Preset;
use crate::model::Named;
use crate::model::Verdict;
use crate::render::Output;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsStr;
use std::marker::PhantomData;
use std::path::PathBuf;

mod limits;
pub use limits::LimitArgs;

/// Audit what AI agents grounded their answers on.
///
/// Reads agent turn logs and traces (JSON Lines, JSON documents, Parquet;
/// gzip or zstd; OpenInference, OpenTelemetry, LangSmith, Langfuse,
/// agentfootprint), grades every turn's inline citations against the chunks
/// retrieval returned, and reports
/// verdicts page by page, rolls them up per agent and day, explains one turn,
/// or gates a CI pipeline on the grounded rate.
#[derive(Debug, Parser)]
#[command(name = "grounding-audit", version, after_long_help = crate::exit::HELP, after_help = crate::exit::HELP)]
pub struct Cli {
    /// Hide the progress bar.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Worker threads (default: all cores).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// When to colour tables.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The command line read, each subcommand's arguments knowing which of
    /// them were given ([`Given`], from clap's value sources).
    pub fn from_command_line<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::{CommandFactory, FromArgMatches};
        let matches = Cli::command().try_get_matches_from(args)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        let given = Given::of(&matches);
        match &mut cli.command {
            Command::Check(a) => a.given = given,
            Command::Merge(a) => a.given = given,
            Command::Summary(a) => a.given = given,
            Command::Report(a) => a.given = given,
            _ => {}
        }
        Ok(cli)
    }
}

/// `--input-format` values: `auto` and every dialect's name, with help.
fn format_values() -> Vec<clap::builder::PossibleValue> {
    std::iter::once(
        clap::builder::PossibleValue::new("auto").help("Decide per file from its first bytes"),
    )
    .chain(
        crate::dialect::DIALECTS
            .iter()
            .map(|d| clap::builder::PossibleValue::new(d.name()).help(d.about())),
    )
    .collect()
}

/// The flag values of the layers below, parsed through
/// [`crate::model::Named`]: their names and help are the types' own, and
/// those layers know no argument parser. A field of such a type names
/// `value_parser = named::<T>()` (and its default by `Named::name`), as the
/// types live in another crate, where clap's `ValueEnum` cannot be
/// implemented for them.
#[derive(Debug)]
pub struct NamedParser<T>(PhantomData<fn() -> T>);

impl<T> Clone for NamedParser<T> {
    fn clone(&self) -> Self {
        NamedParser(PhantomData)
    }
}

/// The parser of a [`Named`] value.
pub fn named<T: Named>() -> NamedParser<T> {
    NamedParser(PhantomData)
}

impl<T: Named> NamedParser<T> {
    fn values() -> impl Iterator<Item = PossibleValue> {
        T::ALL.iter().map(|v| {
            let value = PossibleValue::new(v.name());
            match v.about() {
                Some(help) => value.help(help),
                None => value,
            }
        })
    }
}

impl<T: Named + Send + Sync> TypedValueParser for NamedParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        // The possible values' own parser, for its errors and suggestions.
        let name = PossibleValuesParser::new(Self::values()).parse_ref(cmd, arg, value)?;
        Ok(T::from_name(&name).expect("a possible value"))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Self::values()))
    }
}

/// The arguments given on the command line, by id: what clap's value
/// source says, so a value equal to its default (`--format text`) is still
/// a value given, and a default is never taken for a choice.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Given(std::collections::BTreeSet<String>);

impl Given {
    /// The arguments of `m` and of its subcommands given on the command line.
    pub fn of(m: &clap::ArgMatches) -> Given {
        let mut set = std::collections::BTreeSet::new();
        let mut at = Some(m);
        while let Some(m) = at {
            for id in m.ids() {
                if m.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine) {
                    set.insert(id.as_str().to_owned());
                }
            }
            at = m.subcommand().map(|(_, sub)| sub);
        }
        Given(set)
    }

    /// Whether the flag `--long-name` was given (its id is the field name).
    pub fn flag(&self, flag: &str) -> bool {
        let id = flag.trim_start_matches('-').replace('-', "_");
        self.0.contains(&id)
    }
}

/// Colour choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal, NO_COLOR is unset and TERM is not dumb.
    Auto,
    /// Always colour tables.
    Always,
    /// Never colour.
    Never,
}

/// The subcommands. Parsed once per run, so the size of the largest
/// (`check`, with its gates) costs nothing worth a box.
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Grade turns and list them one page at a time, newest first.
    #[command(after_help = crate::exit::HELP)]
    Report(ReportArgs),
    /// Roll up every matching turn: totals, per agent, daily trend, triage list.
    #[command(after_help = crate::exit::HELP)]
    Summary(SummaryArgs),
    /// Gate a CI pipeline on the grounded rate (exit 1 when a gate fails).
    #[command(after_help = crate::exit::HELP)]
    Check(CheckArgs),
    /// Show one turn's full audit: chunks, markers, tools, telemetry.
    #[command(after_help = crate::exit::HELP)]
    Explain(ExplainArgs),
    /// Print one JSON evidence record per turn (free text only with --show-text).
    #[command(after_help = crate::exit::HELP)]
    Evidence(EvidenceArgs),
    /// Convert any log to the native turn log, or write verdicts back as OTel evaluation events, Phoenix span annotations, Langfuse scores or LangSmith feedback.
    #[command(after_help = crate::exit::HELP)]
    Convert(ConvertArgs),
    /// Say what a file is before grading it: format, field coverage, the map that reads it (try one with --map, --set, --map-file), marker grammar, and a command line that grades it.
    #[command(after_help = crate::exit::HELP)]
    Inspect(InspectArgs),
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff; e.g. `grounding-audit man > ~/.local/share/man/man1/grounding-audit.1`).
    Man,
    /// Render summary, report or check from partials (`--partial`), as one pass over all their input.
    #[command(after_help = crate::exit::HELP)]
    Merge(MergeArgs),
}

/// Where turns come from and how strictly they are read.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Input")]
pub struct InputArgs {
    /// Files (JSON Lines, a JSON document, Parquet; gzip or zstd) or directories (every *.jsonl, *.ndjson and *.parquet below, plain or .gz/.zst, in sorted order); `-` or nothing for stdin.
    #[arg(value_name = "PATHS")]
    pub paths: Vec<PathBuf>,
    /// Make the first invalid line fatal (exit 3).
    #[arg(long)]
    pub strict: bool,
    /// Keep repeated turn ids instead of counting them as duplicates.
    #[arg(long)]
    pub no_dedupe: bool,
    /// Lines longer than this are invalid lines (not read into memory).
    #[arg(long, value_name = "BYTES", default_value_t = crate::input::DEFAULT_MAX_LINE)]
    pub max_line_bytes: u64,
    /// A whole JSON document (an array, a pretty-printed export) larger than this is an error that says how to stream it.
    #[arg(long, value_name = "BYTES", default_value_t = crate::input::DEFAULT_MAX_DOCUMENT)]
    pub max_document_bytes: u64,
    /// Input dialect; `auto` decides per file from its first bytes.
    #[arg(long, value_name = "FORMAT", default_value = "auto", value_parser = clap::builder::PossibleValuesParser::new(format_values()))]
    pub input_format: String,
    /// Which retrievals of an assembled trace give its chunks: the documents found in the answering LLM call's input (else the last retrieval), the last one before the answer, or all of them in start order.
    #[arg(long, value_enum, value_name = "WHICH", default_value_t = Retrievals::Prompt)]
    pub retrievals: Retrievals,
    /// Records (spans, events) read without one of a trace's or run's own before it is assembled; bounds memory by the traces still open.
    #[arg(long, value_name = "RECORDS", default_value_t = crate::dialect::assembly::DEFAULT_WINDOW)]
    pub assembly_window: u64,
    /// Agent name for assembled turns (agentfootprint runs, traces) when the data should not decide it.
    #[arg(long, value_name = "NAME")]
    pub agent_name: Option<String>,
    /// `--map`, `--set`, `--map-file`.
    #[command(flatten)]
    pub maps: MapArgs,
}

/// Where the fields of a home-grown log live (`--map`, `--set`,
/// `--map-file`): read by every command that reads logs, and tried by
/// `inspect`.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Input")]
pub struct MapArgs {
    /// Where a turn field lives in your lines, as a JSON Pointer (repeatable): reply=/answer, chunks=/sources, chunk.score=/relevance.
    ///
    /// Fields: turn_id, agent_id, conversation_id, channel, created_at, reply, chunks, citations, tools, model, tokens_used, cost_cents, latency_ms; within a chunk chunk.id, chunk.document_id, chunk.score, chunk.content; within a tool call tool.name, tool.status. The chunks may be a JSON string (chunks=json:/context), an object of chunks keyed by their ids (chunks=keyed:/docs), or both (chunks=json:keyed:/context). Unmapped fields stay where the native log has them. Mapped times may also be Unix seconds or milliseconds, or date-times without an offset (UTC). A mapping that points at nothing on every line is an error.
    #[arg(long = "map", value_name = "FIELD=POINTER")]
    pub map: Vec<String>,
    /// A constant for a turn field the lines do not hold (repeatable): agent_id=support-bot, channel=voice, created_at=2026-01-31T00:00:00Z, conversation_id=eval-1.
    ///
    /// For logs without those fields, such as an evaluator's output; a map file sets them in a `[set]` table. A field is either mapped or set, not both.
    #[arg(long = "set", value_name = "FIELD=VALUE")]
    pub set: Vec<String>,
    /// A TOML or JSON file of field mappings (`reply = "/answer"`; see --map); --map flags override it.
    #[arg(long, value_name = "FILE")]
    pub map_file: Option<PathBuf>,
}

/// Which retrievals of a trace give its chunks (`--retrievals`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Retrievals {
    /// The retrieved documents whose text is in the answering LLM call's recorded input, in that order; where none is (or the input was not recorded), the last retrieval.
    Prompt,
    /// The last retrieval that finished before the answer started (what the model answered from).
    Last,
    /// Every retrieval before the answer, in start order (sources numbered across searches).
    All,
}

/// The confidence of the intervals `summary` prints unless told otherwise.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// Which time zone dates are read in and times are shown in.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Time")]
pub struct ZoneArgs {
    /// Time zone of date-only times, of summary days and of --show-tz: an IANA name (Europe/Berlin, daylight saving included) or an offset (+02:00, Z). Default: $GROUNDING_AUDIT_TZ, else UTC.
    #[arg(long, value_name = "ZONE", allow_hyphen_values = true)]
    pub tz: Option<String>,
    /// How times are printed: local (in the --tz zone, RFC 3339 with its offset; JSON adds created_at_local beside the UTC created_at) or utc. Default: local when a zone other than UTC is given (--tz or $GROUNDING_AUDIT_TZ), else utc.
    #[arg(long, value_enum, value_name = "local|utc")]
    pub show_tz: Option<ShowTz>,
}

/// Which clock times are printed in (`--show-tz`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowTz {
    /// In the --tz zone, with its offset.
    Local,
    /// In UTC, with `Z`.
    Utc,
}

/// Which turns count. Parsed here, resolved and applied in one place
/// (`config::filter`, `filter::Filter`).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Filters")]
pub struct FilterArgs {
    /// Only turns at or after this time: RFC 3339, a local time (2026-08-02T09:00) or a date (local midnight in --tz).
    #[arg(long, value_name = "TIME")]
    pub from: Option<String>,
    /// Only turns before this time (exclusive; same forms as --from).
    #[arg(long, value_name = "TIME")]
    pub to: Option<String>,
    /// Only turns in the last SPAN before --now: a number and s, m, h, d or w (36h, 7d).
    #[arg(long, value_name = "SPAN", conflicts_with = "from")]
    pub since: Option<String>,
    /// The time --since counts back from, which also ends the window unless --to is given (default: the clock, open-ended); for reproducible runs.
    #[arg(long, value_name = "TIME", requires = "since")]
    pub now: Option<String>,
    /// Only this agent (repeatable).
    #[arg(long, value_name = "ID")]
    pub agent: Vec<String>,
    /// Only this channel, e.g. chat or voice (repeatable).
    #[arg(long, value_name = "C")]
    pub channel: Vec<String>,
    /// Only turns answered by this model (repeatable).
    #[arg(long, value_name = "NAME")]
    pub model: Vec<String>,
    /// Only this turn (repeatable).
    #[arg(long = "turn", value_name = "ID")]
    pub turn: Vec<String>,
    /// Only turns of this conversation (repeatable); report lists them oldest first.
    #[arg(long, value_name = "ID")]
    pub conversation: Vec<String>,
    /// Only turns whose reply text matches this regex (the text is still not printed without --show-text). Smart case, as ripgrep: a pattern without an upper-case letter ignores case (refund finds Refunds); one with an upper-case letter, or --case-sensitive, does not.
    #[arg(long, value_name = "REGEX")]
    pub grep: Option<String>,
    /// Match --grep with case, even for an all-lower-case pattern.
    #[arg(long, short = 's', requires = "grep")]
    pub case_sensitive: bool,
    /// Only turns citing a chunk whose score is under S.
    #[arg(long, value_name = "S")]
    pub cited_below: Option<f64>,
    /// Only turns whose confidence is under S (turns without scores never are).
    #[arg(long, value_name = "S")]
    pub confidence_below: Option<f64>,
    #[command(flatten)]
    pub zone: ZoneArgs,
}

/// How markers are read.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Grammar")]
pub struct MarkerArgs {
    /// Marker grammar (default kb; id for agentfootprint input).
    #[arg(long, value_parser = named::<Preset>(), value_name = "PRESET")]
    pub markers: Option<Preset>,
    /// A custom marker regex with exactly one capture group holding the chunk index.
    #[arg(long, value_name = "RE", conflicts_with = "markers")]
    pub marker_regex: Option<String>,
    /// Index base of --marker-regex captures.
    #[arg(long, value_name = "0|1", default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1), requires = "marker_regex")]
    pub marker_base: u8,
}

pub use crate::render::report::Format as ReportFormat;

/// Arguments of `report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Only turns with this verdict (repeatable).
    #[arg(long, value_parser = named::<Verdict>())]
    pub verdict: Vec<Verdict>,
    /// Only turns a require_citation guardrail (the Orbit agent platform's safety setting) would refuse: retrieval and no well-formed marker of the grammar.
    #[arg(long)]
    pub would_block: bool,
    /// Rows per page (1-200).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u16).range(1..=200))]
    pub limit: u16,
    /// Continue after the last row of a previous page (from its next_cursor).
    #[arg(long, value_name = "TOKEN", conflicts_with = "all")]
    pub cursor: Option<String>,
    /// Every matching row in input order, streamed, with the summary over all of them.
    #[arg(long)]
    pub all: bool,
    /// Output format.
    #[arg(long, value_parser = named::<ReportFormat>(), default_value = ReportFormat::DEFAULT.name())]
    pub format: ReportFormat,
    /// CSV: write values as they are, without neutralising leading = + - @.
    #[arg(long)]
    pub csv_raw: bool,
    /// Table, Markdown and CSV columns, in this order (comma-separated; names as in the JSON row, see docs/report.md).
    #[arg(long, value_name = "A,B,C", value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(crate::model::COLUMNS))]
    pub columns: Vec<String>,
    /// Instead of rendering, write the page's complete mergeable state (a
    /// versioned JSON partial; `-` for stdout) for `grounding-audit merge`.
    ///
    /// --limit and --cursor choose the page here, not in merge; --all
    /// streams every row and has no bounded state, so it takes no --partial.
    #[arg(long, value_name = "FILE")]
    pub partial: Option<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub filter: FilterArgs,
    #[command(flatten)]
    pub markers: MarkerArgs,
    /// Which arguments were given ([`Cli::from_command_line`]).
    #[arg(skip)]
    pub given: Given,
}

pub use crate::render::summary::Format as SummaryFormat;

pub use crate::accumulate::summary::{Bucket, GroupBy};
pub use crate::accumulate::triage::TriageOrder;

pub use crate::render::summary::CsvSection as Section;

/// Arguments of `summary`.
#[derive(Debug, Args)]
pub struct SummaryArgs {
    /// Breakdown key.
    #[arg(long, value_parser = named::<GroupBy>(), default_value = GroupBy::Agent.name())]
    pub by: GroupBy,
    /// Ungrounded turns to list (0 turns the list off).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub triage: usize,
    /// Order of the triage list: by severity (invented citations, then missing markers on confident retrieval, then the rest; a group in a significant drop first within each; then newest), or newest first.
    #[arg(long, value_parser = named::<TriageOrder>(), value_name = "ORDER", default_value = TriageOrder::Severity.name())]
    pub triage_order: TriageOrder,
    /// Citations of chunks scoring below this count as low-confidence citations.
    #[arg(long, value_name = "S", default_value_t = 0.5)]
    pub low_score: f64,
    /// Trend bucket width (at the --tz offset).
    #[arg(long, value_parser = named::<Bucket>(), default_value = Bucket::Day.name())]
    pub bucket: Bucket,
    /// Compare with a baseline: a saved `summary --format json` document.
    #[arg(long, value_name = "BASELINE", conflicts_with_all = ["compare_from", "compare_previous"])]
    pub compare: Option<PathBuf>,
    /// Compare with the turns of the same logs from this time (the baseline window; with --compare-to).
    #[arg(long, value_name = "TIME", requires = "compare_to")]
    pub compare_from: Option<String>,
    /// End of the baseline window (exclusive).
    #[arg(long, value_name = "TIME", requires = "compare_from")]
    pub compare_to: Option<String>,
    /// Compare the --since window with the window of the same length just before it.
    #[arg(long, requires = "since", conflicts_with = "compare_from")]
    pub compare_previous: bool,
    /// Confidence of the comparison's intervals.
    #[arg(long, value_name = "C", default_value_t = DEFAULT_CONFIDENCE)]
    pub confidence: f64,
    /// Output format.
    #[arg(long, value_parser = named::<SummaryFormat>(), default_value = SummaryFormat::DEFAULT.name())]
    pub format: SummaryFormat,
    /// With --format csv: which table (default groups).
    ///
    /// The other formats print every section, so --section without --format csv is a usage error.
    #[arg(long, value_parser = named::<Section>())]
    pub section: Option<Section>,
    /// CSV: write values as they are, without neutralising leading = + - @.
    #[arg(long)]
    pub csv_raw: bool,
    /// Also write the HTML report to FILE, in the same pass as --format.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// The HTML report marks this grounded rate (0..1) as the threshold on its trend.
    #[arg(long, value_name = "R")]
    pub min_rate: Option<f64>,
    /// Instead of rendering, write the run's complete mergeable state (a
    /// versioned JSON partial; `-` for stdout) for `grounding-audit merge`.
    ///
    /// The partial records the options that change grading; partials made
    /// with different ones refuse to merge. See docs/scale-out.md.
    #[arg(long, value_name = "FILE")]
    pub partial: Option<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub filter: FilterArgs,
    #[command(flatten)]
    pub markers: MarkerArgs,
    /// Which arguments were given ([`Cli::from_command_line`]).
    #[arg(skip)]
    pub given: Given,
}

/// `--policy`'s help: its keys are the table of gates' and the settings.
fn policy_help() -> String {
    let gates = crate::gate::table::TABLE.iter().map(|r| r.kind.as_str());
    let keys: Vec<&str> = gates.chain(crate::policy::SETTINGS).collect();
    format!(
        "Gates from a TOML file: [defaults] and [agents.<id>] tables of {} (implies --per-agent; flags given on the command line win over [defaults])",
        keys.join(", ")
    )
}

/// Every format of the commands whose partials `merge` renders, once each.
pub fn merge_format_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for f in crate::partial::Kind::ALL
        .into_iter()
        .flat_map(crate::render::formats_of)
    {
        if !names.contains(&f.name) {
            names.push(f.name);
        }
    }
    names
}

/// `merge --format`'s help: each command's formats, from their registries.
fn merge_format_help() -> String {
    let lists: Vec<String> = crate::partial::Kind::ALL
        .into_iter()
        .map(|k| {
            let names: Vec<&str> = crate::render::formats_of(k)
                .iter()
                .map(|f| f.name)
                .collect();
            format!("{}: {}", k.as_str(), names.join(", "))
        })
        .collect();
    format!(
        "Output format: one of the formats of the command the partials hold ({}). Default: that command's",
        lists.join("; ")
    )
}

/// `merge`: render `summary`, `report` or `check` from their partials.
///
/// The output flags are those of the command the partials hold; a flag of
/// another command is a usage error. What chose the turns and the state
/// (filters, grammar, `--by`, `--limit`, `--cursor`, ...) was fixed when
/// the partials were made and is recorded in them.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Partial documents written by `summary`, `report` or `check` with `--partial`, merged in this order.
    #[arg(value_name = "PARTIAL", required = true)]
    pub partials: Vec<PathBuf>,
    #[arg(long, value_name = "FORMAT", help = merge_format_help(), value_parser = PossibleValuesParser::new(merge_format_names()))]
    pub format: Option<String>,
    /// Summary, with --format csv: which table to print (default: groups).
    #[arg(long, value_parser = named::<Section>())]
    pub section: Option<Section>,
    /// Summary and report, CSV: no spreadsheet-formula escaping.
    #[arg(long)]
    pub csv_raw: bool,
    /// How times are printed: local (in the partials' --tz zone) or utc. Default: local when the partials were made with a zone other than UTC, as one pass prints them.
    #[arg(long, value_enum, value_name = "local|utc")]
    pub show_tz: Option<ShowTz>,
    /// Report: table, Markdown and CSV columns, in this order (as `report --columns`).
    #[arg(long, value_name = "A,B,C", value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(crate::model::COLUMNS))]
    pub columns: Vec<String>,
    /// Check: the gates (as `check` takes them); summary: only --min-rate, the HTML threshold.
    #[command(flatten)]
    pub gates: GateArgs,
    /// Check: the documents written besides stdout; summary: only --html and --triage-order.
    #[command(flatten)]
    pub out: CheckOutputArgs,
    /// Which arguments were given ([`Cli::from_command_line`]).
    #[arg(skip)]
    pub given: Given,
}

pub use crate::render::check::Format as CheckFormat;

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Output format.
    #[arg(long, value_parser = named::<CheckFormat>(), default_value = CheckFormat::DEFAULT.name())]
    pub format: CheckFormat,
    /// Instead of gating, write the run's complete mergeable state (a
    /// versioned JSON partial; `-` for stdout) for `grounding-audit merge`,
    /// which takes the gates. See docs/scale-out.md.
    #[arg(long, value_name = "FILE")]
    pub partial: Option<PathBuf>,
    #[command(flatten)]
    pub gates: GateArgs,
    #[command(flatten)]
    pub out: CheckOutputArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub filter: FilterArgs,
    #[command(flatten)]
    pub markers: MarkerArgs,
    /// Which arguments were given ([`Cli::from_command_line`]).
    #[arg(skip)]
    pub given: Given,
}

/// The gates of `check` (and of `merge` over check partials).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Gates")]
pub struct GateArgs {
    /// The limits of the gates on graded turns (`--min-rate`, `--max-orphans`, …).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Apply the rate gates (--min-rate, --max-drop, --max-orphan-rate) to each agent as well as overall.
    #[arg(long)]
    pub per_agent: bool,
    /// Fewer turns with retrieval than N is not enough evidence (fails overall; agents are not gated) [default: 1].
    #[arg(long, value_name = "N")]
    pub min_turns: Option<u64>,
    /// Gate on intervals at this confidence (e.g. 0.95): a rate fails only when its Wilson upper bound is below --min-rate; a drop only when significant.
    #[arg(long, value_name = "C")]
    pub confidence: Option<f64>,
    /// With --confidence: the Wilson lower bound must clear --min-rate (the stricter rule, for regulated agents).
    #[arg(long, requires = "confidence")]
    pub require_proof: bool,
    /// A saved `summary --format json` document to compare against (see --max-drop).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write this run's `summary --format json` document to FILE, for a later --baseline.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// With --write-baseline: write it only when every gate passed, keeping overall and per agent the better of the old baseline (--baseline, else the file written) and this run, so the baseline only moves up. A --baseline that is the file written and does not exist yet is the first night: no drop is gated, and the run starts the baseline.
    #[arg(long, requires = "write_baseline")]
    pub ratchet: bool,
    #[arg(long, value_name = "FILE", help = policy_help())]
    pub policy: Option<PathBuf>,
    /// Invalid input lines above N fail the run with exit 3.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_invalid: u64,
    /// Pass (with a warning) when no turn had retrieval.
    #[arg(long)]
    pub allow_empty: bool,
}

impl GateArgs {
    /// `--min-rate`, which also marks the HTML report's trend.
    pub fn min_rate(&self) -> Option<f64> {
        self.limits.0.rate(crate::gate::GateKind::MIN_RATE)
    }
}

/// Where `check` writes its documents besides stdout.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Output")]
pub struct CheckOutputArgs {
    /// Write the document to FILE; the decision line then goes to stdout.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Also write the JSON document to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Also write the Markdown table to FILE.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Also write the HTML summary report of this run to FILE (its trend marks --min-rate).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Order of the triage list (as `summary --triage-order`): of the HTML report and the baseline (`check`), of every format (`merge` of summary partials).
    #[arg(long, value_parser = named::<TriageOrder>(), value_name = "ORDER", default_value = TriageOrder::Severity.name())]
    pub triage_order: TriageOrder,
    /// Also print GitHub workflow commands (and append the job summary to $GITHUB_STEP_SUMMARY when set).
    #[arg(long)]
    pub github: bool,
}

pub use crate::render::explain::Format as ExplainFormat;

/// Arguments of `explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The turn to explain.
    pub turn_id: String,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub markers: MarkerArgs,
    /// Show the text the log carries: the question, the reply (markers highlighted on a terminal) and each chunk's text (cited chunks marked).
    #[arg(long)]
    pub show_text: bool,
    /// Show tool-call arguments and results.
    #[arg(long)]
    pub show_tools: bool,
    /// Citations of chunks scoring below this are flagged as low-confidence citations.
    #[arg(long, value_name = "S", default_value_t = 0.5)]
    pub low_score: f64,
    #[command(flatten)]
    pub zone: ZoneArgs,
    /// Output format.
    #[arg(long, value_parser = named::<ExplainFormat>(), default_value = ExplainFormat::DEFAULT.name())]
    pub format: ExplainFormat,
}

/// Arguments of `evidence`.
#[derive(Debug, Args)]
pub struct EvidenceArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub filter: FilterArgs,
    #[command(flatten)]
    pub markers: MarkerArgs,
    /// Include the free text the log carries (question, injected chunk text, model outputs, reply); without it records hold ids, scores, lengths and statuses only.
    #[arg(long)]
    pub show_text: bool,
    /// Write only the units a judge must decide (cited sentences with the text of the chunks they cite, hinted ones first), in the input this judge loads; what the log decides is left out and counted on standard error.
    #[arg(long = "for", value_name = "JUDGE", value_parser = named::<JudgeFor>())]
    pub judge: Option<JudgeFor>,
}

/// The judges `evidence --for` writes input for.
pub use crate::render::judge::Judge as JudgeFor;

/// Target of `convert`: the native turn log or a write-back record.
pub use crate::render::writeback::Target as ConvertTo;

/// Arguments of `convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub markers: MarkerArgs,
    /// Output format.
    #[arg(long, value_parser = named::<ConvertTo>(), default_value = ConvertTo::Turns.name())]
    pub to: ConvertTo,
    /// Write back the turns whose span, observation or run can be addressed and warn with the count of the others (by default one that cannot be addressed is an error, exit 3, and nothing is written).
    #[arg(long)]
    pub skip_unaddressable: bool,
}

pub use crate::render::inspect::Format as InspectFormat;

/// Arguments of `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// Files (or directories) to inspect.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Read every record instead of a sample.
    #[arg(long)]
    pub all: bool,
    /// Records read from each file unless --all.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10_000,
        conflicts_with = "all"
    )]
    pub sample: u64,
    /// Output format.
    #[arg(long, value_parser = named::<InspectFormat>(), default_value = InspectFormat::DEFAULT.name())]
    pub format: InspectFormat,
    /// A map to try (`--map`, `--set`, `--map-file`): the fields it names are read as it says, the others as inspect proposes.
    #[command(flatten)]
    pub maps: MapArgs,
}

/// The flags of `check` that only a deciding run acts on: a partial
/// refuses them, and `merge` refuses them for partials of another command.
/// `--min-rate` is not among them: `summary` has it too.
pub fn check_flags() -> Vec<&'static str> {
    let gates = crate::gate::TABLE
        .iter()
        .map(|r| r.flag)
        .filter(|f| *f != "--min-rate");
    [
        "--per-agent",
        "--min-turns",
        "--confidence",
        "--require-proof",
    ]
    .into_iter()
    .chain(gates)
    .chain([
        "--baseline",
        "--write-baseline",
        "--ratchet",
        "--policy",
        "--max-invalid",
        "--allow-empty",
        "--output",
        "--junit",
        "--json",
        "--markdown",
        "--github",
    ])
    .collect()
}

/// Each of [`check_flags`] with whether it was given.
pub fn check_flags_given(given: &Given) -> Vec<(&'static str, bool)> {
    check_flags()
        .into_iter()
        .map(|f| (f, given.flag(f)))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_model_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }

    /// Every flag asked about by name is one `check` and `merge` have, so a
    /// renamed flag fails here rather than passing as never given.
    #[test]
    fn the_flags_asked_about_exist_and_given_means_given() {
        use clap::CommandFactory;
        let cmd = super::Cli::command();
        for sub in ["check", "merge"] {
            let sub = cmd.find_subcommand(sub).unwrap();
            for flag in super::check_flags().iter().chain(&[
                "--min-rate",
                "--html",
                "--triage-order",
                "--format",
            ]) {
                let long = flag.trim_start_matches('-');
                assert!(
                    sub.get_arguments().any(|a| a.get_long() == Some(long)
                        && a.get_id().as_str() == long.replace('-', "_")),
                    "{} has no {flag}",
                    sub.get_name()
                );
            }
        }
        let cli = super::Cli::from_command_line([
            "ga",
            "check",
            "--format",
            "text",
            "--max-invalid",
            "0",
            "x",
        ])
        .unwrap();
        let super::Command::Check(a) = cli.command else {
            panic!()
        };
        assert!(a.given.flag("--format") && a.given.flag("--max-invalid"));
        assert!(!a.given.flag("--triage-order") && !a.given.flag("--github"));
    }
}

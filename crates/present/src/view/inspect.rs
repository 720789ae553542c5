//! The view of `inspect`: what one file is and how to grade it, as every
//! format draws it — its format and what reads it, the coverage of each
//! turn field, the map tried (given and proposed) with the records holding
//! each of its fields, what each marker preset finds and the grammar chosen
//! with its reason, and a command line that grades the file, or a note
//! saying why there is none. Built from the sample, the field survey and
//! the engine's reading of the sample. No I/O.

use crate::accumulate::EvidenceCounts;
use crate::accumulate::guess::{Choice, MarkerGuess, PresetGuess};
use crate::input::Shape;
use crate::messages::Warning;
use crate::pipeline::InputStats;
use crate::pipeline::probe::{Keys, escape_token};
use crate::pipeline::sample::Sample;
use crate::pipeline::survey::{Coverage, MapField, Origin, Survey};
use crate::shell;
use serde::Serialize;

/// What `inspect` says about one file.
#[derive(Debug, Serialize)]
pub struct FileReport {
    pub file: String,
    /// `turns`, a dialect's name, `json_array`, `json_document`, `utf16`,
    /// `csv` or `unknown` (Parquet is decoded to rows first).
    pub format: String,
    /// The dialect that reads it (`mapped` through a map); None when not read.
    pub reads_as: Option<String>,
    /// Records (non-blank lines or elements) sampled, and whether that was all.
    pub records: u64,
    pub complete: bool,
    /// Turns read from the sample, and the records that were invalid or
    /// repeated a turn id.
    pub turns: u64,
    pub invalid: u64,
    pub duplicates: u64,
    /// Coverage of each field where the native log has it (turn logs only).
    pub fields: Vec<Coverage>,
    /// The map tried: `--map` arguments (`FIELD=POINTER`) and `--set`
    /// arguments (`FIELD=VALUE`), given and proposed.
    pub map: Vec<String>,
    pub set: Vec<String>,
    /// Each field of that map: where it is read, who chose it, how many
    /// records hold it.
    pub map_fields: Vec<MapField>,
    /// Why a given map is not used.
    pub map_note: Option<String>,
    /// The sampled turns by what the file holds of their retrieval
    /// (absent when no turn was read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<EvidenceCounts>,
    /// Sampled turns with a reply to scan, and what each preset finds.
    pub replies: u64,
    pub markers: Vec<PresetGuess>,
    /// The grammar the command uses, and why.
    pub grammar: Option<&'static str>,
    pub grammar_reason: Option<String>,
    /// Warnings of the run with the map and grammar.
    pub warnings: Vec<Warning>,
    /// A command line that grades the file, as one string and as arguments.
    pub command: Option<String>,
    pub argv: Option<Vec<String>>,
    /// What to do when the file cannot be graded as it is.
    pub note: Option<String>,
}

/// The engine's reading of the sample with the map: the accounting and
/// what each preset finds.
pub struct Read {
    pub stats: InputStats,
    pub guess: MarkerGuess,
    /// The sampled turns by what the export holds of their retrieval.
    pub evidence: EvidenceCounts,
    /// The grammar of the dialect that read it.
    pub default_grammar: &'static str,
    /// `field=pointer` of each mapping that resolved on no record.
    pub unresolved: Vec<String>,
}

impl FileReport {
    /// The report on a file before anything is known about its content.
    fn empty(file: &str, sample: &Sample) -> FileReport {
        FileReport {
            file: file.to_owned(),
            format: String::new(),
            reads_as: None,
            records: sample.count,
            complete: sample.complete,
            turns: 0,
            invalid: 0,
            duplicates: 0,
            fields: Vec::new(),
            map: Vec::new(),
            set: Vec::new(),
            map_fields: Vec::new(),
            map_note: None,
            evidence: None,
            replies: 0,
            markers: Vec::new(),
            grammar: None,
            grammar_reason: None,
            warnings: Vec::new(),
            command: None,
            argv: None,
            note: None,
        }
    }
}

/// The report on a file that is not read at all: a CSV file, or (read as
/// a turn log) no record a JSON object. None when it is read.
pub fn unreadable(file: &str, sample: &Sample) -> Option<FileReport> {
    if !sample.is_turn_log() {
        return None;
    }
    let (format, note) = if sample.shapes.contains(&Shape::Csv) {
        ("csv", format!("the file {}", Shape::Csv.message()))
    } else if !sample.records.iter().any(|l| {
        l.trim_start().starts_with('{') && serde_json::from_str::<serde::de::IgnoredAny>(l).is_ok()
    }) {
        let note = "no line is a JSON object: not a turn log, nor any dialect this tool reads";
        ("unknown", note.to_owned())
    } else {
        return None;
    };
    let mut r = FileReport::empty(file, sample);
    r.format = format.into();
    r.note = Some(note);
    Some(r)
}

/// The report on a file in a format this tool recognises but does not read:
/// the format's name, what it is and what it would take; no command.
pub fn recognised(file: &str, sample: &Sample, known: crate::dialect::known::Known) -> FileReport {
    let mut r = FileReport::empty(file, sample);
    r.format = known.name.into();
    r.note = Some(format!("{}: not read; {}", known.what, known.takes));
    r
}

/// The report on a file that could not be read through: the reason as its note.
pub fn failed(file: &str, sample: &Sample, reason: &str) -> FileReport {
    let mut r = FileReport::empty(file, sample);
    r.format = format_name(sample);
    r.note = Some(format!("reading it failed: {reason}"));
    r
}

/// The report on a file read with the map of `survey` (turn logs) or its
/// own dialect; `given` is true when the command line gave a map.
pub fn build(
    file: &str,
    sample: &Sample,
    survey: Option<Survey>,
    given: bool,
    read: Read,
) -> FileReport {
    let mut r = FileReport::empty(file, sample);
    r.format = format_name(sample);
    let stats = &read.stats;
    if sample.whole {
        r.records = stats.lines - stats.blank_lines;
    }
    (r.turns, r.invalid, r.duplicates) = (stats.turns, stats.invalid_lines, stats.duplicates);
    let mapped = survey.as_ref().is_some_and(|s| !s.map.is_empty());
    r.reads_as = Some(
        if mapped {
            "mapped"
        } else {
            sample.dialect.name()
        }
        .to_owned(),
    );
    if given && !sample.is_turn_log() {
        r.map_note = Some(format!(
            "not used: the file is read as {}, which takes no map",
            sample.dialect.name()
        ));
    }
    if let Some(s) = survey {
        r.fields = s.fields;
        let args = |flag| -> Vec<String> {
            s.entries
                .iter()
                .filter(|e| e.flag == Some(flag))
                .map(|e| format!("{}={}", e.field, e.value))
                .collect()
        };
        (r.map, r.set) = (args("--map"), args("--set"));
        if mapped {
            r.map_fields = s.entries;
        }
    }
    r.evidence = (read.evidence.turns() > 0).then_some(read.evidence);
    r.replies = read.guess.replies;
    r.markers = read.guess.guesses();
    let reads_as = if mapped || sample.is_turn_log() {
        "the turn log"
    } else {
        sample.dialect.name()
    };
    let choice = read.guess.choose(read.default_grammar, reads_as);
    r.warnings = stats
        .warnings
        .iter()
        .filter(|w| !(w.kind == "marker_grammar" && choice.preset != read.default_grammar))
        .cloned()
        .collect();
    (r.grammar, r.grammar_reason) = (Some(choice.preset), Some(choice.why.clone()));
    if let Some(note) = no_turn_note(&r, sample).or_else(|| unresolved_note(&read.unresolved)) {
        r.note = Some(note);
        return r;
    }
    let argv = command(&r, &choice);
    r.command = Some(shell::line(&argv));
    r.argv = Some(argv);
    r
}

/// `grounding-audit report FILE` with the map and the grammar.
fn command(r: &FileReport, choice: &Choice) -> Vec<String> {
    let mut options = Vec::new();
    for m in &r.map {
        options.extend(["--map", m.as_str()]);
    }
    for s in &r.set {
        options.extend(["--set", s.as_str()]);
    }
    if choice.named {
        options.extend(["--markers", choice.preset]);
    }
    shell::argv(&["grounding-audit", "report"], &[&r.file], &options)
}

/// The format a readable file is reported as: its encoding or shape when
/// those are not plain lines, else the dialect that reads it.
fn format_name(sample: &Sample) -> String {
    let has = |s| sample.shapes.contains(&s);
    if has(Shape::Utf16) {
        "utf16".into()
    } else if has(Shape::JsonArray) {
        "json_array".into()
    } else if has(Shape::JsonDocument) {
        "json_document".into()
    } else {
        sample.dialect.name().into()
    }
}

/// What to do when a mapping points at nothing: the command would stop
/// on it.
fn unresolved_note(unresolved: &[String]) -> Option<String> {
    let first = unresolved.first()?;
    let more = match unresolved.len() {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Some(format!(
        "--map {first}{more} points at nothing on the records read: grading with it stops with an error; fix the pointer or leave it out"
    ))
}

/// What to do when records were sampled but no turn was read from them.
fn no_turn_note(r: &FileReport, sample: &Sample) -> Option<String> {
    if r.turns > 0 || r.records == 0 {
        return None;
    }
    if !sample.is_turn_log() {
        return Some(format!(
            "read as {}, but no turn could be built from this file alone ({} invalid record(s)): it may need the other files of its export; inspect or grade them together",
            sample.dialect.name(),
            r.invalid
        ));
    }
    let keys = sample
        .records
        .iter()
        .find_map(|l| Keys::of(l))
        .map(|k| {
            k.top
                .iter()
                .map(|(k, _)| format!("/{}", escape_token(k)))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    let absent: Vec<String> = r
        .map_fields
        .iter()
        .filter(|f| f.unit == "records" && f.have == 0)
        .filter(|f| ["turn_id", "agent_id", "created_at"].contains(&f.field.as_str()))
        .map(|f| format!("{} ({})", f.field, f.value))
        .collect();
    let under = if r.map_fields.is_empty() {
        String::new()
    } else if r.map_fields.iter().any(|f| f.origin == Origin::Given) {
        " under the map tried".to_owned()
    } else {
        " under the map proposed".to_owned()
    };
    let why = if absent.is_empty() && !r.map_fields.is_empty() {
        "grade it to see each record's reason on stderr".to_owned()
    } else {
        let absent = if absent.is_empty() {
            String::new()
        } else {
            format!("no record holds {}; ", absent.join(", "))
        };
        format!(
            "{absent}map the fields a turn needs yourself (--map turn_id=/POINTER, agent_id, created_at; a field the records do not hold takes a constant: --set agent_id=NAME, --set created_at=TIME; a --map-file keeps both)"
        )
    };
    Some(format!(
        "no record reads as a turn{under}: {why}; the first record's top-level keys: {keys}"
    ))
}

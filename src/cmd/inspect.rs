//! `inspect`: say what a file is before grading it. For each file: the
//! format (native turns, each dialect from [`crate::dialect::DIALECTS`], a
//! JSON array, UTF-16, CSV or unknown; Parquet is decoded to its rows first), the coverage of each turn
//! field with the nearest names when one is missing, how many replies each
//! marker preset finds markers in (with an example), and a command line that
//! grades the file: with the `--map` and `--markers` it needs.
//!
//! Field coverage of line formats is read from the JSON of a sample of lines
//! (a `serde_json::Value` per line: this is a one-off look, not the hot
//! path). The turns themselves come from the engine every grading command
//! uses, on the same sample, with the suggested map, so what `inspect` counts
//! is what the suggested command will read.

use crate::accumulate::details::Details;
use crate::cli::{InspectArgs, InspectFormat};
use crate::config::Settings;
use crate::dialect::mapped::{self, FieldMap, Mapped};
use crate::dialect::{self, Dialect};
use crate::grade::grade;
use crate::input::{self, Shape, Source};
use crate::markers::{Grammar, MarkerKind};
use crate::messages::Warning;
use crate::model::{Answer, Verdict};
use crate::pipeline::probe::{self, Keys, NEAR_MISSES, NearMiss, PRESETS, preset_name};
use crate::pipeline::{self, Engine, InputStats};
use crate::render::shell;
use anyhow::Result;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, Read, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

/// One turn field's coverage.
#[derive(Debug, Serialize)]
pub struct Coverage {
    pub field: String,
    /// Where it was looked for.
    pub pointer: String,
    /// Share of sampled records that have it (not null).
    pub share: f64,
    /// Nearest names when it is missing on most records: (pointer, share).
    pub nearest: Vec<Nearest>,
}

/// A near-miss name and how often it holds a value.
#[derive(Debug, Serialize)]
pub struct Nearest {
    pub pointer: String,
    pub share: f64,
}

/// What one preset finds.
#[derive(Debug, Serialize)]
pub struct PresetGuess {
    pub preset: &'static str,
    /// Replies with at least one well-formed marker.
    pub replies_with_markers: u64,
    /// Replies with at least one marker that resolves to a chunk.
    pub replies_citing: u64,
    /// The first marker found, as written.
    pub example: Option<String>,
    /// The verdicts of the sampled turns with this preset.
    pub verdicts: BTreeMap<&'static str, u64>,
}

/// What `inspect` says about one file.
#[derive(Debug, Serialize)]
pub struct FileReport {
    pub file: String,
    /// `turns`, a dialect's name, `json_array`, `utf16`, `csv` or `unknown` (Parquet is decoded to rows first).
    pub format: String,
    /// The dialect that reads it (`mapped` with a field map); None when not read.
    pub reads_as: Option<String>,
    /// Records (non-blank lines or elements) sampled, and whether that was all.
    pub records: u64,
    pub complete: bool,
    pub turns: u64,
    pub invalid: u64,
    /// Field coverage (line formats of turn objects only).
    pub fields: Vec<Coverage>,
    /// Sampled turns with a reply to scan.
    pub replies: u64,
    pub markers: Vec<PresetGuess>,
    /// The suggested grammar.
    pub grammar: Option<&'static str>,
    /// The suggested `--map` arguments.
    pub map: Vec<String>,
    /// Warnings of the run with the suggestions.
    pub warnings: Vec<Warning>,
    /// A command line that grades the file, as one string and as arguments.
    pub command: Option<String>,
    pub argv: Option<Vec<String>>,
    /// What to do when the file cannot be graded as it is.
    pub note: Option<String>,
}

/// Runs `inspect`.
pub fn run(args: &InspectArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    let expanded = input::expand(&args.files)?;
    let limit = (!args.all).then_some(args.sample);
    let mut reports = Vec::new();
    for src in &expanded.sources {
        reports.push(inspect(src, limit, settings)?);
    }
    match args.format {
        InspectFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &reports)?;
            writeln!(out)?;
        }
        InspectFormat::Text => {
            for r in &reports {
                text(r, out)?;
            }
        }
    }
    Ok(())
}

/// Reads up to `limit` records of `src` (after decompression, UTF-16
/// decoding and, for a JSON array, cutting into one element per line).
/// What [`sample`] read: the records, the file's shape, whether it was
/// UTF-16, whether every record was read, and the document dialect that
/// reads it whole (a pretty-printed export the first lines cannot name).
type Sampled = (
    Vec<String>,
    Option<Shape>,
    bool,
    bool,
    Option<&'static dyn Dialect>,
);

fn sample(src: &Source, limit: Option<u64>) -> Result<Sampled> {
    let (mut reader, utf16) = input::open_decoded(src, Arc::new(AtomicU64::new(0)))?;
    let mut head = Vec::new();
    (&mut reader).take(1 << 20).read_to_end(&mut head)?;
    let mut shape = input::sniff_shape(&head);
    let mut whole: Option<&'static dyn Dialect> = None;
    if shape.is_none() && input::is_spread_object(&head) {
        // One document spread over lines: read whole by the document
        // dialect it names, else one value per line, as the reader does.
        reader.read_to_end(&mut head)?;
        let d = dialect::detect(None, &head);
        if d.is_document(&head) {
            whole = Some(d);
        } else {
            shape = Some(Shape::JsonDocument);
        }
    }
    let mut lines = Vec::new();
    let mut complete = true;
    let push = |line: &[u8], lines: &mut Vec<String>| -> bool {
        let line = input::clean_line(line, lines.is_empty());
        if !line.iter().all(u8::is_ascii_whitespace) {
            if limit.is_some_and(|l| lines.len() as u64 >= l) {
                return false;
            }
            lines.push(String::from_utf8_lossy(line).into_owned());
        }
        true
    };
    if matches!(shape, Some(Shape::JsonArray | Shape::JsonDocument)) {
        let mut all = head;
        reader.read_to_end(&mut all)?;
        let cut = if shape == Some(Shape::JsonArray) {
            input::json_array_lines(&all)
        } else {
            input::json_document_lines(&all)
        };
        if let Some(data) = cut {
            for l in data.split(|&b| b == b'\n') {
                if !push(l, &mut lines) {
                    complete = false;
                    break;
                }
            }
            return Ok((lines, shape, utf16, complete, whole));
        }
        head = all;
        shape = shape.filter(|s| *s != Shape::JsonDocument);
    }
    let mut buf = std::io::BufReader::new(std::io::Cursor::new(head).chain(reader));
    let mut line = Vec::new();
    loop {
        line.clear();
        if buf.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if !push(&line, &mut lines) {
            complete = false;
            break;
        }
    }
    Ok((lines, shape, utf16, complete, whole))
}

fn inspect(src: &Source, limit: Option<u64>, settings: &Settings) -> Result<FileReport> {
    let (lines, shape, utf16, complete, whole) = sample(src, limit)?;
    let first: Vec<u8> = lines
        .iter()
        .take(50)
        .flat_map(|l| [l.as_bytes(), b"\n"].concat())
        .collect();
    let mut report = FileReport::empty(src.name.clone(), lines.len() as u64, complete);
    let detected = whole.unwrap_or_else(|| dialect::detect(None, &first));
    let native = detected.name() == dialect::native::NATIVE.name();
    if let Some((format, note)) = unreadable(&lines, shape, native) {
        report.format = format.into();
        report.note = Some(note);
        return Ok(report);
    }
    report.format = format_name(utf16, shape, detected);
    let mut map = FieldMap::default();
    if native {
        report.fields = coverage(&lines, &mut map);
    }
    let mapped_dialect: Option<&'static Mapped> = if map.is_empty() {
        None
    } else {
        Some(Box::leak(Box::new(
            Mapped::new(map.clone()).map_err(crate::exit::usage)?,
        )))
    };
    report.map = map
        .explicit
        .iter()
        .map(|(f, p)| format!("{f}={p}"))
        .collect();
    report.reads_as = Some(match mapped_dialect {
        Some(m) if native => m.name().into(),
        _ => detected.name().into(),
    });
    let (stats, acc) = match read_sample(src, limit, settings, mapped_dialect) {
        Ok(read) => read,
        Err(e) => {
            report.note = Some(format!("reading it failed: {e:#}"));
            return Ok(report);
        }
    };
    report.turns = stats.turns;
    report.invalid = stats.invalid_lines;
    report.replies = acc.replies;
    let default = match mapped_dialect {
        Some(m) if native => m.grammar(),
        _ => detected.grammar(),
    };
    let default_name = probe::grammar_name(&default);
    report.markers = acc.guesses();
    let best = best_preset(&report.markers, default_name);
    report.grammar = Some(best);
    report.warnings = stats
        .warnings
        .iter()
        .filter(|w| !(w.kind == "marker_grammar" && best != default_name))
        .cloned()
        .collect();
    if let Some(note) = no_turn_note(&report, &lines, native, detected) {
        report.note = Some(note);
        return Ok(report);
    }
    let mut options = Vec::new();
    for m in &report.map {
        options.extend(["--map", m.as_str()]);
    }
    if best != default_name {
        options.extend(["--markers", best]);
    }
    let argv = shell::argv(&["grounding-audit", "report"], &[&src.name], &options);
    report.command = Some(shell::line(&argv));
    report.argv = Some(argv);
    Ok(report)
}

impl FileReport {
    /// The report on a file before anything is known about its content.
    fn empty(file: String, records: u64, complete: bool) -> FileReport {
        FileReport {
            file,
            format: String::new(),
            reads_as: None,
            records,
            complete,
            turns: 0,
            invalid: 0,
            fields: Vec::new(),
            replies: 0,
            markers: Vec::new(),
            grammar: None,
            map: Vec::new(),
            warnings: Vec::new(),
            command: None,
            argv: None,
            note: None,
        }
    }
}

/// The format and a note when the sampled lines are not read at all: a CSV
/// file, or (read as native turns) no line a JSON object.
fn unreadable(
    lines: &[String],
    shape: Option<Shape>,
    native: bool,
) -> Option<(&'static str, String)> {
    if shape == Some(Shape::Csv) && native {
        return Some(("csv", format!("the file {}", Shape::Csv.message())));
    }
    let objects = || {
        lines
            .iter()
            .filter(|l| {
                l.trim_start().starts_with('{')
                    && serde_json::from_str::<serde::de::IgnoredAny>(l).is_ok()
            })
            .count()
    };
    if native && objects() == 0 {
        return Some((
            "unknown",
            "no line is a JSON object: not a turn log, nor any dialect this tool reads".into(),
        ));
    }
    None
}

/// The turns of the sample, read by the engine exactly as the suggested
/// command will (with `map`), and what each preset finds in them.
fn read_sample(
    src: &Source,
    limit: Option<u64>,
    settings: &Settings,
    map: Option<&'static Mapped>,
) -> Result<(InputStats, Guess)> {
    let engine = Engine {
        threads: settings.threads,
        max_lines: limit,
        silent: true,
        detail: true,
        warn_limit: 0,
        map,
        ..Engine::default()
    };
    let sources = [src.clone()];
    let mut acc = Guess::default();
    let stats = pipeline::run(
        &engine,
        &sources,
        None,
        || Details::new(None),
        |d| {
            acc.add(&d);
            Ok(())
        },
    )?;
    Ok((stats, acc))
}

/// The preset citing in most replies; the dialect's own (`default_name`)
/// wins a tie. When none cites (replies without chunks), the one finding
/// markers in most replies: markers without chunks still say which grammar
/// is meant. With no marker found at all, the dialect's own.
fn best_preset(markers: &[PresetGuess], default_name: &'static str) -> &'static str {
    let uncited = markers.iter().all(|m| m.replies_citing == 0);
    let count = |m: &PresetGuess| {
        if uncited {
            m.replies_with_markers
        } else {
            m.replies_citing
        }
    };
    markers
        .iter()
        .max_by(|a, b| {
            count(a)
                .cmp(&count(b))
                .then((a.preset == default_name).cmp(&(b.preset == default_name)))
                .then(
                    PRESETS
                        .iter()
                        .position(|p| preset_name(*p) == b.preset)
                        .cmp(&PRESETS.iter().position(|p| preset_name(*p) == a.preset)),
                )
        })
        .filter(|b| count(b) > 0)
        .map_or(default_name, |b| b.preset)
}

/// The format a readable file is reported as: its encoding or shape when
/// those are not plain lines, else the dialect that reads it.
fn format_name(utf16: bool, shape: Option<Shape>, detected: &dyn Dialect) -> String {
    if utf16 {
        "utf16".into()
    } else if shape == Some(Shape::JsonArray) {
        "json_array".into()
    } else if shape == Some(Shape::JsonDocument) {
        "json_document".into()
    } else {
        detected.name().into()
    }
}

/// What to do when records were sampled but no turn was read from them.
fn no_turn_note(
    report: &FileReport,
    lines: &[String],
    native: bool,
    detected: &dyn Dialect,
) -> Option<String> {
    if report.turns > 0 || report.records == 0 {
        return None;
    }
    if !native {
        return Some(format!(
            "read as {}, but no turn could be built from this file alone ({} invalid record(s)): it may need the other files of its export; inspect or grade them together",
            detected.name(),
            report.invalid
        ));
    }
    let keys = lines
        .iter()
        .find_map(|l| Keys::of(l))
        .map(|k| {
            k.top
                .iter()
                .map(|(k, _)| format!("/{}", probe::escape_token(k)))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    Some(format!(
        "no record reads as a turn{}: map the required fields yourself (--map turn_id=/POINTER, agent_id, created_at; a field the lines do not hold takes a constant: --set agent_id=NAME, --set created_at=TIME; a --map-file keeps both); the first record's top-level keys: {keys}",
        if report.map.is_empty() {
            ""
        } else {
            " even with the map below"
        }
    ))
}

/// The value at a pointer, when present and not null.
fn at<'v>(v: &'v Value, pointer: &str) -> Option<&'v Value> {
    v.pointer(pointer).filter(|x| !x.is_null())
}

/// Field coverage of sampled lines, and the mappings that fix the fields
/// missing on most of them (written into `map`).
fn coverage(lines: &[String], map: &mut FieldMap) -> Vec<Coverage> {
    let values: Vec<Value> = lines
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(Value::is_object)
        .collect();
    let n = values.len().max(1) as f64;
    let share = |ptr: &str| values.iter().filter(|v| at(v, ptr).is_some()).count() as f64 / n;
    let mut out = Vec::new();
    let mut chunks_at = mapped::TURN_FIELDS[6].1.to_owned();
    for (field, native) in mapped::TURN_FIELDS {
        let mut cov = Coverage {
            field: field.into(),
            pointer: native.into(),
            share: share(native),
            nearest: Vec::new(),
        };
        let near = NEAR_MISSES.iter().find(|nm| nm.field == field);
        if let Some(nm) = near
            && cov.share < 0.5
        {
            let near = nearest_names(lines, nm, n);
            // The reply also counts as present when citations stand for it.
            let covered = field == "reply" && share("/grounding/citations") + cov.share >= 0.5;
            if let Some(best) = near.first()
                && best.share >= 0.5
                && !covered
            {
                let _ = map.set(field, &best.pointer);
                if field == "chunks" {
                    chunks_at = best.pointer.clone();
                }
            }
            cov.nearest = near;
        }
        // Times the native log does not accept, but a map does.
        if field == "created_at" {
            let ptr = map.turn[4].clone();
            if times_need_map(&values, &ptr) {
                let _ = map.set("created_at", &ptr);
            }
        }
        out.push(cov);
    }
    out.extend(chunk_coverage(&values, &chunks_at, map));
    out
}

/// The near-miss names of a turn field the lines hold, with the share of
/// `n` records holding each, most common first.
fn nearest_names(lines: &[String], nm: &NearMiss, n: f64) -> Vec<Nearest> {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for l in lines {
        if let Some(keys) = Keys::of(l) {
            for c in keys.candidates(nm) {
                *counts.entry(c).or_default() += 1;
            }
        }
    }
    let mut near: Vec<Nearest> = counts
        .into_iter()
        .map(|(pointer, c)| Nearest {
            pointer,
            share: c as f64 / n,
        })
        .collect();
    near.sort_by(|a, b| b.share.total_cmp(&a.share).then(a.pointer.cmp(&b.pointer)));
    near
}

/// Whether most times at `ptr` are ones the native log does not accept
/// and a map does.
fn times_need_map(values: &[Value], ptr: &str) -> bool {
    let times: Vec<&Value> = values.iter().filter_map(|v| at(v, ptr)).collect();
    let native_ok = times
        .iter()
        .filter(|t| {
            t.as_str()
                .is_some_and(|s| dialect::native::parse_time(s).is_ok())
        })
        .count();
    let mapped_ok = times
        .iter()
        .filter(|t| match t {
            Value::String(s) => mapped::parse_time(s).is_ok(),
            Value::Number(_) => true,
            _ => false,
        })
        .count();
    native_ok * 2 < times.len() && mapped_ok * 2 >= times.len()
}

/// Each field within a chunk: its native name first, then the names that
/// stand for it.
const CHUNK_NEAR: [(&str, &[&str]); 4] = [
    (
        "id",
        &["chunk_id", "id", "chunkId", "key", "passage_id", "node_id"],
    ),
    (
        "document_id",
        &[
            "document_id",
            "doc_id",
            "documentId",
            "doc",
            "source",
            "url",
            "title",
            "document",
        ],
    ),
    (
        "score",
        &[
            "score",
            "relevance",
            "relevance_score",
            "similarity",
            "rerank_score",
            "distance",
        ],
    ),
    (
        "content",
        &[
            "content",
            "text",
            "page_content",
            "snippet",
            "passage",
            "chunk",
        ],
    ),
];

/// Coverage of the fields within the chunks at `chunks_at`: the native
/// names, or the nearest (and the mappings that fix them, written into `map`).
fn chunk_coverage(values: &[Value], chunks_at: &str, map: &mut FieldMap) -> Vec<Coverage> {
    let elements: Vec<&Value> = values
        .iter()
        .filter_map(|v| at(v, chunks_at))
        .filter_map(Value::as_array)
        .flatten()
        .collect();
    let m = elements.len().max(1) as f64;
    let mut out = Vec::new();
    for (field, names) in CHUNK_NEAR {
        let native = format!("/{}", names[0]);
        let count = |name: &str| {
            elements
                .iter()
                .filter(|e| e.get(name).is_some_and(|x| !x.is_null()))
                .count() as f64
                / m
        };
        let own = count(names[0]);
        let mut nearest: Vec<Nearest> = names[1..]
            .iter()
            .map(|name| Nearest {
                pointer: format!("/{}", probe::escape_token(name)),
                share: count(name),
            })
            .filter(|x| x.share > 0.0)
            .collect();
        nearest.sort_by(|a, b| b.share.total_cmp(&a.share));
        // `content` is only worth a map when the chunk is mapped anyway.
        let (chunk_native, _) = mapped::CHUNK_FIELDS
            .iter()
            .find(|(f, _)| *f == field)
            .copied()
            .unwrap_or(("id", "/chunk_id"));
        if !elements.is_empty()
            && own < 0.5
            && let Some(best) = nearest.first()
            && best.share >= 0.5
            && (field != "content" || !map.is_empty())
            && !(field == "id" && map.chunk[1] == best.pointer)
        {
            let _ = map.set(&format!("chunk.{chunk_native}"), &best.pointer);
        }
        if !elements.is_empty() {
            out.push(Coverage {
                field: format!("chunk.{field}"),
                pointer: native,
                share: own,
                nearest: if own < 0.5 { nearest } else { Vec::new() },
            });
        }
    }
    out
}

/// Marker and verdict counts over the sampled turns, per preset.
#[derive(Default)]
struct Guess {
    replies: u64,
    markers: [u64; 5],
    citing: [u64; 5],
    examples: [Option<String>; 5],
    verdicts: [[u64; 5]; 5],
}

impl Guess {
    /// What each preset found, in preset order.
    fn guesses(&self) -> Vec<PresetGuess> {
        PRESETS
            .iter()
            .enumerate()
            .map(|(i, p)| PresetGuess {
                preset: preset_name(*p),
                replies_with_markers: self.markers[i],
                replies_citing: self.citing[i],
                example: self.examples[i].clone(),
                verdicts: Verdict::ALL
                    .iter()
                    .map(|v| (v.as_str(), self.verdicts[i][v.slot()]))
                    .collect(),
            })
            .collect()
    }

    fn add(&mut self, d: &Details) {
        for c in &d.items {
            let turn = &c.detail.turn;
            let text = match &turn.answer {
                Answer::Reply(r) => Some(r.decoded()),
                _ => None,
            };
            self.replies += u64::from(text.is_some());
            for (i, p) in PRESETS.iter().enumerate() {
                let g = Grammar::Preset(*p);
                let row = grade(turn.clone(), &g);
                self.verdicts[i][row.verdict.slot()] += 1;
                let Some(text) = &text else { continue };
                let (mut any, mut cited, mut first) = (false, false, None);
                g.scan(text, &turn.chunks, &mut |m| {
                    if m.kind != MarkerKind::Malformed {
                        any = true;
                        cited |= matches!(m.kind, MarkerKind::Cited(_));
                        first.get_or_insert((m.start, m.end));
                    }
                });
                self.markers[i] += u64::from(any);
                self.citing[i] += u64::from(cited);
                if self.examples[i].is_none()
                    && let Some((s, e)) = first
                {
                    self.examples[i] = text.get(s..e).map(str::to_owned);
                }
            }
        }
    }
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

fn text(r: &FileReport, out: &mut dyn Write) -> Result<()> {
    use crate::render::escape::terminal;
    writeln!(out, "{}", terminal(&r.file))?;
    let reads = r
        .reads_as
        .as_deref()
        .map_or(String::from("not read"), |d| format!("read as {d}"));
    writeln!(out, "  format: {} ({reads})", r.format)?;
    let sample = if r.complete {
        "every record"
    } else {
        "a sample"
    };
    writeln!(
        out,
        "  records: {} ({sample}); turns: {}; invalid: {}",
        r.records, r.turns, r.invalid
    )?;
    if !r.fields.is_empty() {
        writeln!(out, "  fields (share of records):")?;
        for f in &r.fields {
            let near = if f.nearest.is_empty() {
                String::new()
            } else {
                let list: Vec<String> = f
                    .nearest
                    .iter()
                    .take(4)
                    .map(|x| format!("{} {}", x.pointer, pct(x.share)))
                    .collect();
                format!("  nearest: {}", list.join(", "))
            };
            writeln!(
                out,
                "    {:<18} {:>5}  at {}{}",
                f.field,
                pct(f.share),
                f.pointer,
                terminal(&near)
            )?;
        }
    }
    if !r.markers.is_empty() {
        writeln!(out, "  markers ({} replies):", r.replies)?;
        for m in &r.markers {
            let ex = m
                .example
                .as_deref()
                .map_or(String::new(), |e| format!("  e.g. {}", terminal(e)));
            writeln!(
                out,
                "    {:<9} {:>6} with markers, {:>6} citing a chunk{ex}",
                m.preset, m.replies_with_markers, m.replies_citing
            )?;
        }
    }
    for w in &r.warnings {
        writeln!(out, "  {}", terminal(&w.line()))?;
    }
    if let Some(n) = &r.note {
        writeln!(out, "  note: {}", terminal(n))?;
    }
    if let Some(c) = &r.command {
        writeln!(out, "  grade it with:\n    {}", terminal(c))?;
    }
    Ok(())
}

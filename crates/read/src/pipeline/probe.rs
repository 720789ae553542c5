//! Misread heuristics: counts over the whole run that say a log was probably
//! read wrongly (a renamed reply, chunks somewhere else, the wrong marker
//! grammar, scores that are not similarities), turned into [`Warnings`] once
//! the run ends.
//!
//! [`Probe`] is mergeable like the accumulators: each unit counts into its
//! own `InputStats.probe`, and the merger adds them up in input order. Cheap
//! counts (unobserved turns, chunk scores) cover every turn. What costs more
//! (scanning a reply with every marker preset, listing a line's keys to find
//! near-miss field names) is done on a sample: the first [`SAMPLE_PER_UNIT`]
//! lines of each of the first [`SAMPLE_UNITS`] units (blocks of one file,
//! growing from 64 KB to 4 MB), and the first [`SAMPLE_ASSEMBLED`] assembled turns. The sample
//! depends only on the input and its block cuts, never on the thread count.
//! Nothing here prints.

use crate::markers::{Grammar, Marker, MarkerKind, Preset};
use crate::messages::Warnings;
use crate::model::{Answer, Reply, Turn, Unobserved};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// Units (in read order) whose first lines are sampled.
pub const SAMPLE_UNITS: u64 = 4;
/// Lines sampled from each of those units.
pub const SAMPLE_PER_UNIT: u64 = 250;
/// Assembled turns sampled (assembly runs once, in order).
pub const SAMPLE_ASSEMBLED: u64 = 1000;

/// The presets a reply is scanned with, in the order they are preferred on a tie.
pub const PRESETS: [Preset; 5] = Preset::ALL;

/// The name `--markers` gives a preset.
pub fn preset_name(p: Preset) -> &'static str {
    p.name()
}

/// How a grammar is named in messages.
pub fn grammar_name(g: &Grammar) -> &'static str {
    match g {
        Grammar::Preset(p) => preset_name(*p),
        Grammar::Regex { .. } => "--marker-regex",
    }
}

/// Warning kinds that say the input looks misread (`--strict` makes them
/// fatal); `dropped_field` is not one of them.
pub fn is_misread(kind: &str) -> bool {
    kind != "dropped_field"
}

/// A required or central turn field, where the native log has it, and names
/// that often hold it in home-grown logs.
pub struct NearMiss {
    pub field: &'static str,
    /// `true`: must be an array; `false`: any value but null.
    pub array: bool,
    /// Only strings count as the field (the reply).
    pub string: bool,
    pub names: &'static [&'static str],
}

/// The near-miss names looked for, per field.
pub const NEAR_MISSES: [NearMiss; 5] = [
    NearMiss {
        field: "turn_id",
        array: false,
        string: false,
        names: &[
            "id",
            "turnId",
            "turn",
            "message_id",
            "messageId",
            "request_id",
            "requestId",
            "interaction_id",
            "run_id",
            "trace_id",
            "uuid",
        ],
    },
    NearMiss {
        field: "agent_id",
        array: false,
        string: true,
        names: &[
            "agent",
            "agentId",
            "agent_name",
            "bot",
            "bot_id",
            "assistant",
            "assistant_id",
            "app",
            "app_id",
            "application",
            "service",
        ],
    },
    NearMiss {
        field: "created_at",
        array: false,
        string: false,
        names: &[
            "timestamp",
            "time",
            "ts",
            "createdAt",
            "created",
            "date",
            "datetime",
            "start_time",
            "startTime",
            "@timestamp",
            "logged_at",
        ],
    },
    NearMiss {
        field: "reply",
        array: false,
        string: true,
        names: &[
            "answer",
            "response",
            "output",
            "completion",
            "generation",
            "text",
            "content",
            "message",
            "result",
            "final_answer",
            "assistant_reply",
            "bot_response",
        ],
    },
    NearMiss {
        field: "chunks",
        array: true,
        string: false,
        names: &[
            "chunks",
            "sources",
            "documents",
            "contexts",
            "context",
            "passages",
            "retrieved",
            "retrieved_documents",
            "retrieval",
            "references",
            "docs",
            "search_results",
            "hits",
            "results",
        ],
    },
];

/// What one line holds: top-level keys and the keys of `grounding`, each
/// with the first byte of its value.
pub struct Keys<'a> {
    pub top: Vec<(Cow<'a, str>, u8)>,
    pub grounding: Vec<(Cow<'a, str>, u8)>,
}

impl<'a> Keys<'a> {
    /// Lists the keys of a JSON object line; None when it is not one.
    /// Read in one pass by the byte cursor; serde_json reads the lines it
    /// declines (an escaped key, deep nesting, invalid JSON).
    pub fn of(line: &'a str) -> Option<Keys<'a>> {
        if let Some((top, grounding)) = crate::dialect::object_keys(line, "grounding") {
            let borrowed =
                |v: Vec<(&'a str, u8)>| v.into_iter().map(|(k, b)| (Cow::Borrowed(k), b)).collect();
            return Some(Keys {
                top: borrowed(top),
                grounding: borrowed(grounding),
            });
        }
        Self::of_serde(line)
    }

    /// [`Keys::of`] by serde_json: the reference reader.
    fn of_serde(line: &'a str) -> Option<Keys<'a>> {
        let top: HashMap<Cow<'a, str>, &'a RawValue> = serde_json::from_str(line).ok()?;
        let first = |v: &RawValue| v.get().as_bytes().first().copied().unwrap_or(b'n');
        let grounding = top
            .get("grounding")
            .filter(|g| g.get().starts_with('{'))
            .and_then(|g| serde_json::from_str::<HashMap<Cow<'a, str>, &'a RawValue>>(g.get()).ok())
            .map(|g| {
                let mut v: Vec<_> = g.into_iter().map(|(k, v)| (k, first(v))).collect();
                v.sort();
                v
            })
            .unwrap_or_default();
        let mut top: Vec<_> = top.into_iter().map(|(k, v)| (k, first(v))).collect();
        top.sort();
        Some(Keys { top, grounding })
    }

    fn top(&self, k: &str) -> Option<u8> {
        self.top.iter().find(|(n, _)| n == k).map(|(_, b)| *b)
    }

    fn grounding(&self, k: &str) -> Option<u8> {
        self.grounding.iter().find(|(n, _)| n == k).map(|(_, b)| *b)
    }

    /// True when `field` is where the native log has it (and not null).
    pub fn has_native(&self, field: &str) -> bool {
        let present = |b: Option<u8>| b.is_some_and(|b| b != b'n');
        match field {
            "reply" => present(self.top("reply")) || present(self.grounding("citations")),
            "chunks" => self.grounding("chunks") == Some(b'['),
            f => present(self.top(f)),
        }
    }

    /// Pointers of values with a near-miss name for `nm.field`, of a fitting type.
    pub fn candidates(&self, nm: &NearMiss) -> Vec<String> {
        let fits = |b: u8| {
            if nm.array {
                b == b'['
            } else if nm.string {
                b == b'"'
            } else {
                b != b'n' && b != b'{' && b != b'['
            }
        };
        let mut out = Vec::new();
        for name in nm.names {
            if self.top(name).is_some_and(fits) {
                out.push(format!("/{}", escape_token(name)));
            }
            if *name != nm.field && self.grounding(name).is_some_and(fits) {
                out.push(format!("/grounding/{}", escape_token(name)));
            }
        }
        out
    }
}

/// A reference token escaped for a JSON Pointer.
pub fn escape_token(t: &str) -> String {
    t.replace('~', "~0").replace('/', "~1")
}

/// What one counted turn adds to the probe.
#[derive(Debug, Clone, Copy, Default)]
pub struct TurnProbe {
    unobserved: bool,
    scored: u32,
    off_scale: u32,
    /// A reply was scanned (sampled turns with a reply only).
    sampled: bool,
    /// Bit i: preset i found a well-formed marker; bit 5 + i: one in range.
    found: u16,
    /// The chosen grammar found a well-formed marker.
    chosen: bool,
}

impl TurnProbe {
    /// Looks at a turn; scans its reply with every preset when `sample`.
    pub fn of(turn: &Turn<'_>, sample: bool, chosen: &Grammar) -> TurnProbe {
        let mut p = TurnProbe {
            // Only an answer that was not found: a reason the export states
            // (a bounded audit, a withheld draft) is no misreading.
            unobserved: matches!(turn.answer, Answer::Unobserved(Unobserved::NoReply)),
            ..TurnProbe::default()
        };
        for c in &turn.chunks {
            if let Some(s) = c.score.filter(|s| !s.is_nan()) {
                p.scored += 1;
                p.off_scale += u32::from(!(0.0..=1.0).contains(&s));
            }
        }
        if let (true, Answer::Reply(r)) = (sample, &turn.answer) {
            p.sampled = true;
            // The reply as it stands in the line while no escape in it can
            // change a marker (as the grader scans it), else decoded.
            let raw = match r {
                Reply::Json {
                    raw,
                    unicode_escape,
                } => Some((&raw[1..raw.len() - 1], *unicode_escape)),
                Reply::Text(_) => None,
            };
            let (found, first) = raw
                .and_then(|(inner, unicode)| {
                    scan_all(chosen, |g, f| g.scan_raw(inner, unicode, &turn.chunks, f))
                })
                .unwrap_or_else(|| {
                    let text = r.decoded();
                    scan_all(chosen, |g, f| {
                        g.scan(&text, &turn.chunks, f);
                        true
                    })
                    .expect("a decoded scan always completes")
                });
            p.found = found;
            p.chosen = first;
        }
        p
    }
}

/// Scans with every preset, then with the chosen grammar, through `scan`
/// (false: that scan could not complete); the presets' bits (any
/// well-formed marker, any in range) and whether the chosen grammar found
/// a well-formed marker.
fn scan_all(
    chosen: &Grammar,
    scan: impl Fn(&Grammar, &mut dyn FnMut(Marker)) -> bool,
) -> Option<(u16, bool)> {
    let look = |g: &Grammar| -> Option<(bool, bool)> {
        let (mut any, mut cited) = (false, false);
        let done = scan(g, &mut |m: Marker| match m.kind {
            MarkerKind::Cited(_) => {
                any = true;
                cited = true;
            }
            MarkerKind::OutOfRange => any = true,
            MarkerKind::Malformed => {}
        });
        done.then_some((any, cited))
    };
    let mut found = 0u16;
    for (i, preset) in PRESETS.iter().enumerate() {
        let (any, cited) = look(&Grammar::Preset(*preset))?;
        found |= u16::from(any) << i | u16::from(cited) << (5 + i);
    }
    Some((found, look(chosen)?.0))
}

pub use crate::input::Probe;

impl Probe {
    /// Counts one turn.
    pub fn add_turn(&mut self, p: TurnProbe, chosen: &Grammar) {
        self.turns += 1;
        self.unobserved += u64::from(p.unobserved);
        self.scored += u64::from(p.scored);
        self.off_scale += u64::from(p.off_scale);
        if p.sampled {
            self.replies += 1;
            for i in 0..5 {
                self.markers[i] += u64::from(p.found >> i & 1);
                self.cited[i] += u64::from(p.found >> (5 + i) & 1);
            }
            self.chosen += u64::from(p.chosen);
            self.chosen_name.get_or_insert(grammar_name(chosen));
        }
    }

    /// True when assembled turns should still be sampled.
    pub fn wants_assembled(&self) -> bool {
        self.replies < SAMPLE_ASSEMBLED
    }

    /// Counts the keys of one sampled line of the native log.
    pub fn add_keys(&mut self, keys: &Keys<'_>) {
        self.lines += 1;
        for nm in &NEAR_MISSES {
            if keys.has_native(nm.field) {
                continue;
            }
            *self.absent.entry(nm.field).or_default() += 1;
            for c in keys.candidates(nm) {
                *self.near.entry((nm.field, c)).or_default() += 1;
            }
        }
    }

    /// Adds a later probe's counts.
    pub fn merge(&mut self, o: &Probe) {
        self.turns += o.turns;
        self.unobserved += o.unobserved;
        self.scored += o.scored;
        self.off_scale += o.off_scale;
        self.replies += o.replies;
        for i in 0..5 {
            self.markers[i] += o.markers[i];
            self.cited[i] += o.cited[i];
        }
        self.chosen += o.chosen;
        if self.chosen_name.is_none() {
            self.chosen_name = o.chosen_name;
        }
        self.lines += o.lines;
        for (k, v) in &o.absent {
            *self.absent.entry(k).or_default() += v;
        }
        for (k, v) in &o.near {
            *self.near.entry(k.clone()).or_default() += v;
        }
    }

    /// The best near-miss pointer for each field that is absent on most
    /// sampled lines: (field, pointer, lines absent, lines with the pointer).
    pub fn near_misses(&self) -> Vec<(&'static str, String, u64, u64)> {
        let mut out = Vec::new();
        for (&field, &absent) in &self.absent {
            if absent * 2 <= self.lines {
                continue;
            }
            let best = self
                .near
                .iter()
                .filter(|((f, _), _)| *f == field)
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.1.cmp(&a.0.1)));
            if let Some(((_, ptr), &n)) = best
                && n * 2 >= absent
            {
                out.push((field, ptr.clone(), absent, n));
            }
        }
        out
    }

    /// The warnings the counts call for.
    pub fn warnings(&self) -> Warnings {
        let mut w = Warnings::new();
        for (field, ptr, absent, _) in self.near_misses() {
            let lines = self.lines;
            w.add("near_miss_field", field, "sampled line", absent, || {
                format!(
                    "field `{field}` is missing (of {lines} sampled), but `{ptr}` is there: if that holds the {field}, grade with {} (`grounding-audit inspect FILE` shows every field)",
                    crate::shell::option("--map", &format!("{field}={ptr}"))
                )
            });
        }
        if self.turns > 0 && self.unobserved * 2 > self.turns {
            let turns = self.turns;
            w.add("unobserved_majority", "turns", "turn", self.unobserved, || {
                format!(
                    "no observed answer, more than half of the {turns} turns: if the reply is in a field of another name, map it with --map reply=/POINTER (`grounding-audit inspect FILE` finds it)"
                )
            });
        }
        if self.replies > 0 && self.chosen == 0 {
            // The preset that cites most chunks; when none cites any (turns
            // without chunks: an evaluator's file, a trace whose retrieval
            // was not recorded), the one that finds most markers.
            let best = (0..5)
                .filter(|&i| Some(preset_name(PRESETS[i])) != self.chosen_name)
                .max_by(|&a, &b| {
                    (self.cited[a], self.markers[a])
                        .cmp(&(self.cited[b], self.markers[b]))
                        .then(b.cmp(&a))
                });
            let uncited = self.cited.iter().all(|&c| c == 0);
            let count = |i: usize| {
                if uncited {
                    self.markers[i]
                } else {
                    self.cited[i]
                }
            };
            if let Some(i) = best
                && count(i) >= 2
                && count(i) * 10 >= self.replies
            {
                let (name, replies, chosen) = (
                    preset_name(PRESETS[i]),
                    self.replies,
                    self.chosen_name.unwrap_or("kb"),
                );
                w.add("marker_grammar", name, "sampled reply", self.markers[i], || {
                    format!(
                        "have --markers {name} markers, while the grammar used ({chosen}) found none in the {replies} sampled: grade with --markers {name} (`grounding-audit inspect FILE` compares every preset)"
                    )
                });
            }
        }
        if self.scored > 0 && self.off_scale * 2 > self.scored {
            let scored = self.scored;
            w.add("score_range", "chunks[].score", "chunk", self.off_scale, || {
                format!(
                    "scored outside 0..1, more than half of the {scored} with a score (reranker logits, log-probabilities or distances?): confidence is clamped to 0..1 and --low-score thresholds mean nothing for them; map a 0..1 score with --map chunk.score=/POINTER if the log has one"
                )
            });
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_need_most_lines() {
        let mut p = Probe::default();
        for line in [
            r#"{"turn_id":1,"agent_id":"a","created_at":"x","answer":"y","chunks":[]}"#,
            r#"{"turn_id":2,"agent_id":"a","created_at":"x","answer":"y","chunks":[]}"#,
            r#"{"turn_id":3,"agent_id":"a","created_at":"x","reply":"y","grounding":{"chunks":[]}}"#,
        ] {
            p.add_keys(&Keys::of(line).unwrap());
        }
        let found = p.near_misses();
        assert_eq!(
            found,
            [
                ("chunks", "/chunks".to_owned(), 2, 2),
                ("reply", "/answer".to_owned(), 2, 2)
            ]
        );
        let w = p.warnings();
        assert_eq!(w.count("near_miss_field", "reply"), 2);
        let msg = &w.iter().find(|w| w.subject == "reply").unwrap().message;
        assert!(msg.contains("--map reply=/answer"), "{msg}");
    }

    /// The one-pass key lister reads what serde_json's map reads, on lines
    /// of every shape the probe meets and on every one-byte edit of them
    /// (a byte dropped, or one of the bytes JSON cares about put in).
    #[test]
    fn keys_read_in_one_pass_as_serde_json_reads_them() {
        let lines = [
            r#"{"turn_id":"t1","agent_id":"a","reply":"see [KB-1]","grounding":{"chunks":[{"chunk_id":"c","score":0.5}],"citations":[{"index":1}]},"latency_ms":12}"#,
            r#" { "answer" : "y" , "grounding" : { "chunks" : [ ] , "model" : null } , "n" : -1.5e3 } "#,
            r#"{"grounding":{"a":1},"grounding":null,"x":true}"#,
            r#"{"grounding":[1],"grounding":{"b":"\u00e9","b":[{}]},"k":"v"}"#,
            r#"{"esc\u0061ped":1,"grounding":{"k":2}}"#,
            r#"{"deep":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
            r#"{"s":"\ud800","big":1e400,"f":false,"e":{}}"#,
            "{}",
            "[]",
        ];
        let mut texts: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for line in &lines[..4] {
            let b = line.as_bytes();
            for i in 0..=b.len() {
                if i < b.len() {
                    let mut t = b.to_vec();
                    t.remove(i);
                    texts.extend(String::from_utf8(t).ok());
                }
                for c in [
                    b'"', b'\\', b'{', b'}', b'[', b']', b',', b':', b' ', b'0', b'n',
                ] {
                    let mut t = b.to_vec();
                    t.insert(i, c);
                    texts.extend(String::from_utf8(t).ok());
                }
            }
        }
        type Listed = Vec<(String, u8)>;
        fn pairs(k: Keys<'_>) -> (Listed, Listed) {
            let own = |v: Vec<(Cow<'_, str>, u8)>| {
                v.into_iter().map(|(k, b)| (k.into_owned(), b)).collect()
            };
            (own(k.top), own(k.grounding))
        }
        // Real answers, where `../shared` is beside the repository.
        if let Some(real) = crate::test_support::shared("realdata") {
            for dir in std::fs::read_dir(&real).expect("readable").flatten() {
                for file in std::fs::read_dir(dir.path())
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    if file.path().extension().is_some_and(|e| e == "jsonl") {
                        let text = std::fs::read_to_string(file.path()).unwrap();
                        texts.extend(text.lines().take(300).map(str::to_owned));
                    }
                }
            }
        }
        let mut one_pass = 0;
        for t in &texts {
            one_pass += usize::from(crate::dialect::object_keys(t, "grounding").is_some());
            assert_eq!(Keys::of(t).map(pairs), Keys::of_serde(t).map(pairs), "{t}");
        }
        // Most texts are read by the cursor, not handed back to serde_json.
        assert!(one_pass * 4 > texts.len(), "{one_pass} of {}", texts.len());
        assert!(crate::dialect::object_keys(lines[0], "grounding").is_some());
        assert!(crate::dialect::object_keys(lines[4], "grounding").is_none());
    }

    /// A sampled reply scanned as it stands in the line finds what the
    /// decoded reply gives, whenever that scan completes.
    #[test]
    fn raw_replies_probe_as_decoded_ones() {
        use crate::model::{Chunk, Id};
        let chunks: Vec<Chunk<'static>> = ["a", "b", "c"]
            .iter()
            .enumerate()
            .map(|(i, id)| Chunk {
                index: i as u32 + 1,
                document_id: None,
                chunk_id: Some(Id::string(*id)),
                score: None,
            })
            .collect();
        let pieces = [
            "[KB-1]",
            "[1]",
            "[1, 2]",
            "[doc2]",
            "[^1]",
            "[a]",
            "[b]",
            "[KB-9]",
            r"\u005bKB-1]",
            r"[KB\u002d1]",
            r"[KB-1\u005d",
            r"\n",
            r#"\""#,
            r"\\",
            r"\/",
            "[",
            "]",
            "KB-3",
            " ",
            r"\u00e9",
            "x",
        ];
        let (mut completed, mut declined) = (0, 0);
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let raw = format!("{a}{b}{c}");
                    let Ok(text) = serde_json::from_str::<String>(&format!("\"{raw}\"")) else {
                        continue;
                    };
                    for chosen in PRESETS.iter().map(|p| Grammar::Preset(*p)) {
                        let decoded = scan_all(&chosen, |g, f| {
                            g.scan(&text, &chunks, f);
                            true
                        });
                        let unicode = crate::model::has_unicode_escape(&raw);
                        match scan_all(&chosen, |g, f| g.scan_raw(&raw, unicode, &chunks, f)) {
                            Some(found) => {
                                completed += 1;
                                assert_eq!(Some(found), decoded, "{raw}");
                            }
                            None => declined += 1,
                        }
                    }
                }
            }
        }
        // Both ways are taken: the pieces hold escapes that matter and not.
        assert!(
            completed > 1000 && declined > 1000,
            "{completed} completed, {declined} declined"
        );
    }

    #[test]
    fn merge_is_a_sum() {
        let mut a = Probe::default();
        a.add_keys(&Keys::of(r#"{"answer":"x"}"#).unwrap());
        let mut b = a.clone();
        b.merge(&a);
        assert_eq!(b.lines, 2);
        assert_eq!(b.absent["reply"], 2);
    }
}

/// A probe as a partial document carries it (see `crate::partial`): the same
/// counts with owned names, so partials merge the heuristics' inputs and the
/// misread warnings are decided once, over the whole run, as in one pass.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProbeDoc {
    pub turns: u64,
    pub unobserved: u64,
    pub scored: u64,
    pub off_scale: u64,
    pub replies: u64,
    pub markers: [u64; 5],
    pub cited: [u64; 5],
    pub chosen: u64,
    pub chosen_name: Option<String>,
    pub lines: u64,
    pub absent: BTreeMap<String, u64>,
    /// `[field, pointer, lines]`, in key order.
    pub near: Vec<(String, String, u64)>,
}

/// A name read back from a partial as the `&'static str` the probe keys on.
/// Known names (grammar presets, native fields) are few; an unknown one is
/// leaked once per distinct name, which bounds the memory by the vocabulary.
fn static_name(s: &str) -> &'static str {
    static NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.iter().find(|n| **n == s) {
        return n;
    }
    let n: &'static str = Box::leak(s.to_owned().into_boxed_str());
    names.push(n);
    n
}

impl Probe {
    /// The probe's counts, for a partial document.
    pub fn to_doc(&self) -> ProbeDoc {
        ProbeDoc {
            turns: self.turns,
            unobserved: self.unobserved,
            scored: self.scored,
            off_scale: self.off_scale,
            replies: self.replies,
            markers: self.markers,
            cited: self.cited,
            chosen: self.chosen,
            chosen_name: self.chosen_name.map(str::to_owned),
            lines: self.lines,
            absent: self
                .absent
                .iter()
                .map(|(k, v)| ((*k).to_owned(), *v))
                .collect(),
            near: self
                .near
                .iter()
                .map(|((f, p), n)| ((*f).to_owned(), p.clone(), *n))
                .collect(),
        }
    }

    /// A probe read back from a partial document.
    pub fn from_doc(d: &ProbeDoc) -> Probe {
        Probe {
            turns: d.turns,
            unobserved: d.unobserved,
            scored: d.scored,
            off_scale: d.off_scale,
            replies: d.replies,
            markers: d.markers,
            cited: d.cited,
            chosen: d.chosen,
            chosen_name: d.chosen_name.as_deref().map(static_name),
            lines: d.lines,
            absent: d.absent.iter().map(|(k, v)| (static_name(k), *v)).collect(),
            near: d
                .near
                .iter()
                .map(|(f, p, n)| ((static_name(f), p.clone()), *n))
                .collect(),
        }
    }
}

//! The real third-party turn logs in `../shared/realdata/` (see its README):
//! skipped with a message when that folder is absent. Nothing from it is
//! copied into this repository.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

const DATASETS: &[&str] = &["expertqa", "hagrid", "attributed-ir-hagrid"];

/// `report --all --format jsonl` rows of one file.
fn rows(path: &Path, markers: &[&str]) -> Vec<Value> {
    let mut args = vec!["report", "--all", "--format", "jsonl"];
    args.extend_from_slice(markers);
    args.push(path.to_str().unwrap());
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{}: {err}", path.display());
    out.lines().map(json).collect()
}

/// `kb` on the rewritten replies and `numeric` on the original ones agree
/// turn by turn. Every turn of all three datasets agrees (checked by hand as
/// well, against an independent reading of both rules), so nothing is excluded.
#[test]
fn kb_rewrite_and_numeric_original_agree_turn_by_turn() {
    for d in DATASETS {
        let (Some(kb_path), Some(orig_path)) = (
            shared(&format!("realdata/{d}/turns.kb.jsonl")),
            shared(&format!("realdata/{d}/turns.orig.jsonl")),
        ) else {
            return;
        };
        let kb = rows(&kb_path, &[]);
        let orig = rows(&orig_path, &["--markers", "numeric"]);
        assert_eq!(kb.len(), orig.len(), "{d}: same turns in both files");
        assert!(!kb.is_empty(), "{d}");
        let mut disagree = Vec::new();
        for (a, b) in kb.iter().zip(&orig) {
            assert_eq!(a["turn_id"], b["turn_id"], "{d}: same order");
            for field in [
                "verdict",
                "cited_chunks",
                "marker_count",
                "out_of_range_markers",
            ] {
                if a[field] != b[field] {
                    disagree.push(format!(
                        "{} {field}: kb {} vs numeric {}",
                        a["turn_id"], a[field], b[field]
                    ));
                }
            }
        }
        assert!(
            disagree.is_empty(),
            "{d}: {} disagreements:\n{}",
            disagree.len(),
            disagree.join("\n")
        );
        // The agreement is not vacuous: the rewrite's markers were found.
        assert!(kb.iter().any(|r| r["verdict"] == "ok"), "{d}");
    }
}

/// Every dataset reads cleanly: exit 0 and every line accounted for, with
/// every grammar that applies to it.
#[test]
fn report_accounts_for_every_line() {
    for d in DATASETS {
        for (file, markers) in [
            ("turns.kb.jsonl", &[][..]),
            ("turns.orig.jsonl", &["--markers", "numeric"][..]),
        ] {
            let Some(path) = shared(&format!("realdata/{d}/{file}")) else {
                return;
            };
            let lines = std::fs::read_to_string(&path).unwrap().lines().count() as u64;
            let mut args = vec!["report", "--all", "--format", "json"];
            args.extend_from_slice(markers);
            args.push(path.to_str().unwrap());
            let (code, out, err) = run(&args);
            assert_eq!(code, 0, "{d}/{file}: {err}");
            let v = json(&out);
            let i = &v["input"];
            assert_eq!(i["lines"], lines, "{d}/{file}");
            let sum = categories_sum(i);
            assert_eq!(sum, lines, "{d}/{file}: every line is exactly one kind");
            // These logs are clean: one turn per line, nothing dropped.
            assert_eq!(i["turns"], lines, "{d}/{file}: {i}");
            assert_eq!(
                v["rows"].as_array().unwrap().len() as u64,
                lines,
                "{d}/{file}"
            );
            let verdicts: u64 = v["summary"]["verdicts"]
                .as_object()
                .unwrap()
                .values()
                .map(|n| n.as_u64().unwrap())
                .sum();
            assert_eq!(verdicts, lines, "{d}/{file}");
            assert_eq!(
                v["summary"]["verdicts"]["unobserved"], 0,
                "{d}/{file}: every reply is a string"
            );
        }
    }
}

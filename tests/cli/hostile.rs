//! The hostile corpus: every file in `fixtures/hostile/` has an entry in
//! `fixtures/hostile/EXPECTED.json` with the command-line flags to use, the
//! exit code, the exact input accounting and verdict counts (for inputs that
//! can be read), and messages stderr must carry (`{path}` stands for the
//! file's path). Each is run through `report --all --format json` and
//! through `check`, which must fail with exit 3 whenever the input could not
//! be read in full. A file in the folder without an entry fails the test, so
//! the corpus and its expectations cannot drift apart.

use crate::common::{categories_sum, fixture, json, run};
use serde_json::Value;

fn expectations() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(fixture("hostile/EXPECTED.json")).expect("EXPECTED.json");
    match serde_json::from_str(&text).expect("EXPECTED.json is JSON") {
        Value::Object(m) => m,
        _ => panic!("EXPECTED.json is an object keyed by file name"),
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().expect("a string").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_hostile_file_has_an_expectation() {
    let exp = expectations();
    for entry in std::fs::read_dir(fixture("hostile")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name == "EXPECTED.json" {
            continue;
        }
        assert!(
            exp.contains_key(&name),
            "{name} has no entry in EXPECTED.json"
        );
    }
    for name in exp.keys() {
        assert!(
            fixture(&format!("hostile/{name}")).exists(),
            "EXPECTED.json names {name}, which is not in fixtures/hostile"
        );
    }
}

#[test]
fn every_hostile_file_is_accounted_for() {
    for (name, e) in expectations() {
        let path = fixture(&format!("hostile/{name}")).display().to_string();
        let flags = strings(&e["args"]);
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let mut args = vec!["report", "--all", "--format", "json"];
        args.extend(&flags);
        args.push(&path);
        let (code, out, err) = run(&args);
        let want_code = e["exit"].as_i64().expect("exit") as i32;
        assert_eq!(code, want_code, "{name}: exit\n{err}");
        for needle in strings(&e["stderr"]) {
            let needle = needle.replace("{path}", &path);
            assert!(
                err.contains(&needle),
                "{name}: stderr lacks {needle:?}:\n{err}"
            );
        }
        // Never more than the first 10 invalid lines, one message per line.
        assert!(err.lines().count() <= 16, "{name}: stderr floods:\n{err}");
        if code == 0 {
            let doc = json(&out);
            assert_eq!(doc["input"], e["input"], "{name}: input accounting");
            let i = &doc["input"];
            let sum = categories_sum(i);
            assert_eq!(i["lines"].as_u64(), Some(sum), "{name}: lines = sum");
            if let Some(v) = e.get("verdicts") {
                assert_eq!(&doc["summary"]["verdicts"], v, "{name}: verdicts");
            }
            assert_eq!(
                doc["rows"].as_array().unwrap().len() as u64,
                i["turns"].as_u64().unwrap(),
                "{name}: one row per turn"
            );
        } else {
            assert!(
                out.is_empty() || !out.contains("\"summary\""),
                "{name}: {out}"
            );
        }
        // check: exit 3 and FAIL whenever anything could not be read.
        let mut args = vec!["check", "--min-rate", "0", "--allow-empty"];
        args.extend(&flags);
        args.push(&path);
        let (code, out, _) = run(&args);
        let unreadable =
            want_code == 3 || e["input"]["invalid_lines"].as_u64().is_some_and(|n| n > 0);
        if unreadable {
            assert_eq!(code, 3, "{name}: check must fail:\n{out}");
            assert!(out.starts_with("FAIL"), "{name}: {out}");
        } else {
            assert_eq!(code, 0, "{name}: check:\n{out}");
            assert!(out.starts_with("PASS"), "{name}: {out}");
        }
    }
}

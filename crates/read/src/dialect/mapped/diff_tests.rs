//! The cursor reader of mapped lines against serde_json's visitors: for
//! every line and every map, both accept or reject it alike, with the same
//! turn, the same reason and the same warnings. Lines come from the native
//! reader's generator (hostile strings, numbers at every edge, keys named
//! twice, escaped keys, deep nesting, byte edits), the same lines with their
//! keys renamed, and every fixture; the maps put fields in native places,
//! in renamed ones, inside arrays, and on values of the wrong type.

use super::{Caps, FieldMap, Mapped, diff_maps as maps};
use crate::dialect::native::diff_tests::{fixture_lines, line, value, ws};
use crate::messages::Warnings;
use proptest::prelude::*;

/// The keys the second map renames, renamed in a generated line.
fn renamed(line: &str) -> String {
    [
        ("\"turn_id\"", "\"id\""),
        ("\"agent_id\"", "\"agent\""),
        ("\"created_at\"", "\"ts\""),
        ("\"reply\"", "\"answer\""),
        ("\"grounding\"", "\"retrieval\""),
    ]
    .iter()
    .fold(line.to_owned(), |l, (from, to)| l.replace(from, to))
}

/// Both readers' results, compared in full (`Turn`'s `Debug` shows every
/// field).
fn same(m: &Mapped, line: &str) -> Result<(), String> {
    let (mut wf, mut ws) = (Warnings::new(), Warnings::new());
    let fast = format!("{:?}", m.read(line, &mut wf, true));
    let slow = format!("{:?}", m.read(line, &mut ws, false));
    if fast == slow && wf == ws {
        Ok(())
    } else {
        Err(format!(
            "map {:?}\nline {line:?}\n fast {fast} {wf:?}\n serde {slow} {ws:?}",
            m.map().explicit
        ))
    }
}

fn all_same(maps: &[Mapped], line: &str) -> Result<(), String> {
    for m in maps {
        same(m, line)?;
        same(m, &renamed(line))?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn the_cursor_reader_agrees_with_serde_json(line in line()) {
        let maps = maps();
        if let Err(e) = all_same(&maps, &line) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn the_readers_agree_on_any_value(v in value(), w in ws()) {
        let maps = maps();
        let line = format!("{w}{v}{w}");
        if !line.trim().is_empty() && let Err(e) = all_same(&maps, &line) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// Lines the generator rarely writes: values the visitors parse (a key, a
/// scalar on a mapped path) that serde_json rejects, and deep nesting.
#[test]
fn edge_cases_agree() {
    let head = r#""turn_id":"t","agent_id":"a","created_at":"2026-08-01T00:00:00Z""#;
    let deep = |n: usize| format!("{{{head},\"x\":{}{}}}", "[".repeat(n), "]".repeat(n));
    let deep_path = |n: usize| {
        format!(
            "{{{head},\"x\":[{}1{}]}}",
            "{\"y\":".repeat(n),
            "}".repeat(n)
        )
    };
    let mut cases = vec![
        format!("{{{head},\"x\":\"\\ud800\"}}"),
        format!("{{{head},\"x\":[\"\\ud800\"]}}"),
        format!("{{{head},\"x\":[{{\"y\":1e400}}]}}"),
        format!("{{{head},\"x\":[1e400]}}"),
        format!("{{{head},\"x\":[-1e400,{{}}]}}"),
        format!("{{{head},\"x\":[1.5e3]}}"),
        format!("{{{head},\"x\":[{}]}}", "9".repeat(400)),
        format!("{{{head},\"x\":{{\"\\ud800\":1}}}}"),
        format!("{{{head},\"x\":{{\"y\\u0031\":1}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":[{{\"\\ud800\":1}}]}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":{{\"\\ud800\":1}}}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":{{\"a\":1e400}}}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":1e400}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":\"\\ud800\"}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":[[\"\\ud800\"]]}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":[\"\\ud800\"]}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":[1e400]}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":[{{\"chunk_id\":1e400}}]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[{{\"status\":\"\\u0066ail\"}}]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[{{\"status\":\"fail\"}},1]}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":[],\"chunks\":[{{}}]}}}}"),
        format!("{{{head},\"reply\":\"a\",\"reply\":\"b [KB-1]\"}}"),
        format!("{{{head},\"grounding\":null,\"x\":[null,true,false]}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":[{{}},]}}}}"),
        format!("{{{head}}} x"),
        "\u{c}{}".to_owned(),
        "{}".to_owned(),
        "[]".to_owned(),
        " {\"a\":1} ".to_owned(),
    ];
    for n in [30, 62, 63, 64, 65, 127, 200] {
        cases.push(deep(n));
        cases.push(deep_path(n));
    }
    let maps = maps();
    let mut deep_map = FieldMap::default();
    let pointer: String = "/x/0".to_owned() + &"/y".repeat(70);
    deep_map.set("model", &pointer).expect("a pointer");
    let deep_map = Mapped::new(deep_map).expect("a map");
    for line in &cases {
        all_same(&maps, line).unwrap_or_else(|e| panic!("{e}"));
        same(&deep_map, line).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Every line of every fixture reads the same through both, and common
/// lines (native, and renamed) are read by the cursor.
#[test]
fn fixtures_agree_and_common_lines_take_the_fast_path() {
    let maps = maps();
    let mut lines = 0;
    fixture_lines(|f, line| {
        all_same(&maps, line).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        lines += 1;
    });
    assert!(lines > 500, "{lines} fixture lines");
    let demo = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/demo.jsonl"
    ))
    .expect("demo log");
    for (m, rename) in [(&maps[0], false), (&maps[1], true)] {
        let n = demo.lines().count();
        let fast = demo
            .lines()
            .filter(|l| {
                let l = if rename { renamed(l) } else { (*l).to_owned() };
                m.scan(&l, &mut Caps::default()).is_some()
            })
            .count();
        assert_eq!(fast, n, "demo lines read by the cursor (renamed: {rename})");
    }
}

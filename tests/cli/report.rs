//! `report`: pages, formats, filters, cursors, accounting and exit codes.

use crate::common::*;

#[test]
fn demo_page_json_accounts_for_every_line() {
    let (code, out, _) = run(&[
        "report",
        "--format",
        "json",
        fixture("demo.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let v = json(&out);
    let i = &v["input"];
    let sum: u64 = [
        "turns",
        "blank_lines",
        "skipped_records",
        "invalid_lines",
        "duplicates",
    ]
    .iter()
    .map(|k| i[k].as_u64().unwrap())
    .sum();
    assert_eq!(i["lines"].as_u64().unwrap(), sum);
}

//! `summary --format html` and `--html FILE`: the pinned page of the demo
//! log, escaping of hostile ids, the bounds on size, and a real browser:
//! headless Chromium renders the demo report and a generated multi-week
//! report; the DOM it reports must carry the figures, the screenshot must
//! not be blank, every chart (trend panels, verdict mixes, sparklines, the
//! score histogram) must have drawn marks and nothing may have been
//! requested from the network.
//!
//! The browser test needs Debian's `chromium` (`.ci/run` installs it). When
//! it is missing the test says so on stderr and skips, unless
//! `GROUNDING_AUDIT_REQUIRE_BROWSER` is set (as `.ci/run` does), when it fails.

use crate::common::{bin, fixture, run};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A pinned generation time, so the page is the same bytes every run.
const EPOCH: &str = "1785000000";

/// Runs the binary from the crate root (so paths in the page are relative).
fn html_of(args: &[&str]) -> (i32, String, String) {
    let out = bin()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn demo_html() -> String {
    let (code, out, err) = html_of(&[
        "summary",
        "--format",
        "html",
        "--min-rate",
        "0.8",
        "fixtures/demo.jsonl",
    ]);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn demo_snapshot() {
    insta::assert_snapshot!("summary_html", demo_html());
}

/// Every `src`, `href`, `url(` and `@import` stays inside the page.
fn assert_self_contained(page: &str) {
    assert!(
        page.contains(
            r#"content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:""#
        ),
        "the page forbids requests with a CSP"
    );
    // Attributes are always quoted by the renderer, and a `"` from the log is
    // always escaped, so these find every attribute and nothing from the log.
    for needle in [" src=\"", " href=\"", "url(", "@import", " action=\""] {
        for (i, _) in page.match_indices(needle) {
            let rest = page[i + needle.len()..].trim_start_matches(['"', '\'']);
            assert!(
                rest.starts_with('#') || rest.starts_with("data:"),
                "{needle} points outside the page: {}",
                &page[i..(i + 80).min(page.len())]
            );
        }
    }
    assert!(!page.contains("http://") && !page.contains("https://"));
}

#[test]
fn demo_page_has_the_figures_and_is_self_contained() {
    let page = demo_html();
    assert_self_contained(&page);
    for want in [
        "<b>22</b><span>turns</span>",
        "<b>18</b><span>with retrieval</span>",
        "<b>0.6667</b><span>grounded rate</span>",
        "generated 2026-07-25T17:20:00Z",
        "agent support-bot</b> at <b>0.50</b>",
        "grounding-audit explain t-20 fixtures/demo.jsonl",
        "min 0.80",
    ] {
        assert!(page.contains(want), "missing {want}");
    }
    // No text of a reply or chunk.
    assert!(!page.contains("Refunds are available"));
}

#[test]
fn html_file_is_written_beside_another_format() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.html");
    let (code, out, err) = html_of(&[
        "summary",
        "--format",
        "json",
        "--html",
        path.to_str().unwrap(),
        "fixtures/demo.jsonl",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with('{'), "stdout keeps its format");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), demo_html_plain());
    // check writes the same page when asked, in the same pass as the gate.
    let path2 = dir.path().join("c.html");
    let (code, _, err) = html_of(&[
        "check",
        "--min-rate",
        "0.5",
        "--html",
        path2.to_str().unwrap(),
        "fixtures/demo.jsonl",
    ]);
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(&path2).unwrap();
    assert!(page.contains("<b>22</b><span>turns</span>") && page.contains("min 0.50"));
}

fn demo_html_plain() -> String {
    let (code, out, err) = html_of(&["summary", "--format", "html", "fixtures/demo.jsonl"]);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn min_rate_out_of_range_is_a_usage_error() {
    let (code, _, err) = run(&[
        "summary",
        "--format",
        "html",
        "--min-rate",
        "1.5",
        fixture("demo.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--min-rate must be between 0 and 1"), "{err}");
}

#[test]
fn hostile_ids_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("evil.jsonl");
    let ids = [
        "<script>alert(1)</script>",
        "bot\" onmouseover=\"alert(2)",
        "bot' x='y",
        "evil\u{202E}txt.exe",
        "a&amp;b</td></tr></table><img src=x>",
    ];
    let mut text = String::new();
    for (i, id) in ids.iter().enumerate() {
        let turn = format!("t-{i}<b>\u{2066}");
        let line = serde_json::json!({
            "turn_id": turn, "agent_id": id, "channel": "<i>chat</i>",
            "created_at": format!("2026-08-0{}T09:00:00Z", i + 1),
            "reply": "<script>document.write('reply')</script> no marker",
            "grounding": {"chunks": [{"document_id": "<d>", "score": 0.2, "text": "<script>chunk</script>"}],
                          "model": "<svg onload=alert(3)>"}
        });
        text.push_str(&line.to_string());
        text.push('\n');
    }
    std::fs::write(&log, text).unwrap();
    let (code, page, err) = html_of(&["summary", "--format", "html", log.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // The only script is the page's own, and no tag or attribute came from the log.
    assert_eq!(page.matches("<script").count(), 1, "one inline script");
    for bad in [
        "<script>alert",
        "onmouseover=\"alert",
        "<img src=x>",
        "<svg onload",
        "\u{202E}",
        "\u{2066}",
        "<b>\\u",
        "x='y",
        "document.write",
        "chunk</script>",
    ] {
        assert!(!page.contains(bad), "unescaped: {bad}");
    }
    for good in [
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "bot&quot; onmouseover=&quot;alert(2)",
        "bot&#39; x=&#39;y",
        "evil\\u{202e}txt.exe",
        "a&amp;amp;b&lt;/td&gt;",
    ] {
        assert!(page.contains(good), "missing {good}");
    }
    assert_self_contained(&page);
}

/// A deterministic multi-week log: three agents over six weeks, one steady,
/// one sliding, one with orphan markers, at `per_day` turns each a day.
pub fn multi_week_log(path: &Path, days: u32, per_day: u32) {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 1000) as f64 / 1000.0
    };
    let start = chrono::DateTime::parse_from_rfc3339("2026-06-01T00:00:00Z")
        .unwrap()
        .to_utc();
    let mut n = 0u64;
    for day in 0..days {
        for (agent, rate_at) in [
            ("steady-bot", 0.95 - 0.0 * day as f64),
            ("sliding-bot", 0.97 - 0.01 * day as f64),
            ("orphan-bot", 0.85),
        ] {
            for k in 0..per_day {
                n += 1;
                let at = start
                    + chrono::Duration::days(day as i64)
                    + chrono::Duration::seconds((k as i64 * 86_399) / per_day as i64);
                let roll = next();
                let reply = if roll < rate_at {
                    "Answer [KB-1]."
                } else if agent == "orphan-bot" && roll < 0.95 {
                    "Answer [KB-7]."
                } else {
                    "Answer without a marker."
                };
                writeln!(
                    f,
                    r#"{{"turn_id":"w-{n}","agent_id":"{agent}","channel":"chat","created_at":"{}","reply":"{reply}","grounding":{{"chunks":[{{"document_id":"a.md","score":{:.2}}},{{"document_id":"b.md","score":0.4}}]}}}}"#,
                    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                    0.3 + next() * 0.6
                )
                .unwrap();
            }
        }
    }
}

/// The path of Chromium, or None after saying why on stderr.
fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(out) = Command::new(name).arg("--version").output()
            && out.status.success()
        {
            return Some(PathBuf::from(name));
        }
    }
    let msg = "Chromium is not installed: the real-browser test of the HTML report did not run \
               (install it with `apt-get install -y chromium`; .ci/run does)";
    if std::env::var_os("GROUNDING_AUDIT_REQUIRE_BROWSER").is_some() {
        panic!("{msg}");
    }
    eprintln!("SKIPPED: {msg}");
    None
}

fn browser(chrome: &Path, extra: &[String], page: &Path) -> std::process::Output {
    Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--window-size=1280,2400",
        ])
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs")
}

/// (distinct colours, variance of luminance) of a PNG.
fn png_stats(path: &Path) -> (usize, f64) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let px = &buf[..info.buffer_size()];
    let mut colours = std::collections::HashSet::new();
    let (mut sum, mut sq, mut n) = (0f64, 0f64, 0f64);
    for p in px.chunks(channels) {
        let rgb = if channels >= 3 {
            [p[0], p[1], p[2]]
        } else {
            [p[0]; 3]
        };
        colours.insert(rgb);
        let l = 0.2126 * rgb[0] as f64 + 0.7152 * rgb[1] as f64 + 0.0722 * rgb[2] as f64;
        sum += l;
        sq += l * l;
        n += 1.0;
    }
    let mean = sum / n;
    (colours.len(), sq / n - mean * mean)
}

/// The marks (paths, rects, circles) of each chart of a class in a DOM.
fn marks_per_chart(dom: &str, class: &str) -> Vec<usize> {
    let open = format!(r#"<svg class="chart {class}""#);
    dom.split(&open)
        .skip(1)
        .map(|rest| {
            let body = &rest[..rest.find("</svg>").expect("closed svg")];
            body.matches("<path").count()
                + body.matches("<rect").count()
                + body.matches("<circle").count()
        })
        .collect()
}

/// The URLs in a Chromium network log other than the browser's own
/// background traffic (update checks, time, accounts, dictionaries at
/// Google hosts) and `file:` URLs: what the page asked for.
fn page_requests(netlog: &Path) -> Vec<String> {
    let log = std::fs::read_to_string(netlog).expect("chromium wrote its network log");
    let own = ["google.com", "googleapis.com", "gvt1.com"];
    let mut urls: Vec<String> = log
        .split("\"url\":\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap_or(rest.len())].to_owned())
        .filter(|u| !u.starts_with("file:") && !u.starts_with("data:"))
        .filter(|u| {
            let host = u
                .split("://")
                .nth(1)
                .unwrap_or("")
                .split(['/', ':', '?'])
                .next();
            !host.is_some_and(|h| own.iter().any(|o| h == *o || h.ends_with(&format!(".{o}"))))
        })
        .collect();
    urls.sort();
    urls.dedup();
    urls
}

/// Renders `page` in Chromium and checks what it drew; returns the DOM.
fn check_in_browser(chrome: &Path, page: &Path, charts: usize, shot: &Path) -> String {
    let netlog = page.with_extension("netlog.json");
    let out = browser(
        chrome,
        &[
            "--dump-dom".to_owned(),
            format!("--log-net-log={}", netlog.display()),
        ],
        page,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dom = String::from_utf8(out.stdout).unwrap();
    assert!(dom.contains("Grounding audit"), "the page loaded");
    let trend = marks_per_chart(&dom, "trend");
    assert_eq!(trend.len(), charts, "one trend panel per series");
    assert!(
        trend.iter().all(|&m| m >= 3),
        "every trend drew marks: {trend:?}"
    );
    let mix = marks_per_chart(&dom, "mix");
    assert!(!mix.is_empty() && mix.iter().all(|&m| m >= 1), "{mix:?}");
    let spark = marks_per_chart(&dom, "spark");
    assert!(spark.iter().all(|&m| m >= 1), "{spark:?}");
    // The score histogram: grid lines, at least one bar of each series and
    // the two legend swatches.
    let scores = marks_per_chart(&dom, "scores");
    assert_eq!(scores.len(), 1, "one score distribution");
    assert!(scores[0] >= 4, "the score chart drew bars: {scores:?}");
    for series in [r#"class="s-cited""#, r#"fill="url(#p-uncited)""#] {
        let chart = &dom[dom.find(r#"<svg class="chart scores""#).unwrap()..];
        let chart = &chart[..chart.find("</svg>").unwrap()];
        assert!(
            chart.matches(series).count() >= 2,
            "{series}: a bar and a legend swatch"
        );
    }
    let requested = page_requests(&netlog);
    assert!(
        requested.is_empty(),
        "the page requested something: {requested:?}"
    );
    let out = browser(chrome, &[format!("--screenshot={}", shot.display())], page);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (colours, variance) = png_stats(shot);
    assert!(
        colours > 16 && variance > 100.0,
        "the screenshot looks blank: {colours} colours, variance {variance}"
    );
    dom
}

#[test]
fn renders_in_a_real_browser() {
    let Some(chrome) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();

    // The network check sees a page's requests: a page that asks for an
    // image and a style elsewhere is caught.
    let control = dir.path().join("control.html");
    std::fs::write(
        &control,
        r#"<html><body><img src="http://example.invalid/x.png"><link rel="stylesheet" href="https://fonts.example.invalid/a.css"></body></html>"#,
    )
    .unwrap();
    let netlog = dir.path().join("control.netlog.json");
    browser(
        &chrome,
        &[
            "--dump-dom".to_owned(),
            format!("--log-net-log={}", netlog.display()),
        ],
        &control,
    );
    assert_eq!(
        page_requests(&netlog),
        [
            "http://example.invalid/x.png",
            "https://fonts.example.invalid/a.css"
        ]
    );

    let demo = dir.path().join("demo.html");
    std::fs::write(&demo, demo_html()).unwrap();
    let dom = check_in_browser(&chrome, &demo, 4, &dir.path().join("demo.png"));
    for want in [
        "<b>22</b><span>turns</span>",
        "<b>0.6667</b><span>grounded rate</span>",
        "billing-bot",
        "support-bot",
        "voice-concierge",
        "grounding-audit explain t-20 fixtures/demo.jsonl",
    ] {
        assert!(dom.contains(want), "DOM lacks {want}");
    }

    let log = dir.path().join("weeks.jsonl");
    multi_week_log(&log, 42, 12);
    let weeks = dir.path().join("weeks.html");
    let (code, _, err) = html_of(&[
        "summary",
        "--bucket",
        "week",
        "--min-rate",
        "0.8",
        "--html",
        weeks.to_str().unwrap(),
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let dom = check_in_browser(&chrome, &weeks, 4, &dir.path().join("weeks.png"));
    assert!(dom.contains("<b>1512</b><span>turns</span>"), "1512 turns");
    assert!(dom.contains("sliding-bot ▼ falling"), "the slide is named");
    assert!(dom.contains("2026-W23"), "weekly buckets");
}

#[test]
fn comparison_shows_change_and_significance() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("weeks.jsonl");
    multi_week_log(&log, 42, 12);
    let (code, page, err) = html_of(&[
        "summary",
        "--format",
        "html",
        "--bucket",
        "week",
        "--from",
        "2026-06-29",
        "--compare-from",
        "2026-06-01",
        "--compare-to",
        "2026-06-15",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(page.contains("change vs baseline") && page.contains("significance"));
    let row = &page[page
        .find(r#"<th scope="row" class="key">sliding-bot</th>"#)
        .unwrap()..];
    let row = &row[..row.find("</tr>").unwrap()];
    assert!(row.contains("▼ significant drop"), "{row}");
    assert!(
        page.contains("significant drop: sliding-bot"),
        "named in the headline"
    );
}

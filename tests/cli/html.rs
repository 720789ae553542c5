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

use crate::common::{bin, fixture, json, run};
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
        "agent support-bot</b> at <b>0.5000</b>",
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
    browser_at(chrome, 1280, extra, page)
}

/// [`browser`] in a window `width` pixels wide.
fn browser_at(chrome: &Path, width: u32, extra: &[String], page: &Path) -> std::process::Output {
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
        ])
        .arg(format!("--window-size={width},2400"))
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
    // The score distribution of all groups and of each group: a path per kind.
    let mini = marks_per_chart(&dom, "score-mini");
    assert!(
        mini.len() >= charts && mini.iter().all(|&m| m >= 1),
        "{mini:?}"
    );
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

/// Written into a copy of a page, this script puts what the layout came to
/// into the DOM once the page has loaded (`<pre id="layout">`, read with
/// `--dump-dom`): the window's inner width, the document's scroll width,
/// how many chart labels (SVG `<text>`) it measured, and every pair of
/// labels of one chart whose boxes overlap (by more than half a pixel),
/// each box from `getBoundingClientRect`, as drawn.
const LAYOUT_PROBE: &str = r#"<script>addEventListener('load',function(){
var r={inner:window.innerWidth,scroll:document.documentElement.scrollWidth,labels:0,overlaps:[]};
document.querySelectorAll('svg.chart').forEach(function(svg,k){
 var t=Array.prototype.map.call(svg.querySelectorAll('text'),function(x){return [x.textContent,x.getBoundingClientRect()]});
 r.labels+=t.length;
 for(var i=0;i<t.length;i++)for(var j=i+1;j<t.length;j++){var a=t[i][1],b=t[j][1];
  if(a.left<b.right-0.5&&b.left<a.right-0.5&&a.top<b.bottom-0.5&&b.top<a.bottom-0.5)
   r.overlaps.push('chart '+k+' ('+svg.getAttribute('class')+'): '+t[i][0]+' / '+t[j][0]);}});
var p=document.createElement('pre');p.id='layout';p.textContent=JSON.stringify(r);document.body.appendChild(p);});</script>"#;

/// What [`LAYOUT_PROBE`] measured of `page` at `width` pixels.
fn layout_at(chrome: &Path, page: &Path, width: u32) -> serde_json::Value {
    let html = std::fs::read_to_string(page).unwrap();
    let probed = page.with_extension(format!("{width}.html"));
    std::fs::write(
        &probed,
        html.replace("</body>", &format!("{LAYOUT_PROBE}</body>")),
    )
    .unwrap();
    let out = browser_at(chrome, width, &["--dump-dom".to_owned()], &probed);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dom = String::from_utf8(out.stdout).unwrap();
    let at =
        dom.find(r#"<pre id="layout">"#).expect("the probe ran") + r#"<pre id="layout">"#.len();
    let text = &dom[at..at + dom[at..].find("</pre>").unwrap()];
    serde_json::from_str(
        &text
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">"),
    )
    .expect("the probe wrote JSON")
}

/// At 600 and 1280 pixels the page does not scroll sideways, and no two
/// labels of a chart overlap: the demo page, a page of 42 days whose last
/// rate sits beside the threshold's label, and a page with a comparison.
#[test]
fn readable_at_600_and_1280_pixels() {
    let Some(chrome) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("weeks.jsonl");
    multi_week_log(&log, 42, 12);
    let log = log.to_str().unwrap();
    let demo = [
        "summary",
        "--format",
        "html",
        "--min-rate",
        "0.8",
        "fixtures/demo.jsonl",
    ];
    // The last day's rate is 0.75 overall, 0.58 for sliding-bot and 0.83
    // for the two others: each threshold puts one of them beside its label.
    let mut pages: Vec<Vec<&str>> = vec![demo.to_vec()];
    for min in ["0.85", "0.8", "0.6"] {
        pages.push(vec!["summary", "--format", "html", "--min-rate", min, log]);
    }
    pages.push(vec![
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
        "--low-score",
        "0.05",
        log,
    ]);
    for (i, args) in pages.iter().enumerate() {
        let (code, page, err) = html_of(args);
        assert_eq!(code, 0, "{err}");
        let path = dir.path().join(format!("page{i}.html"));
        std::fs::write(&path, page).unwrap();
        for width in [600, 1280] {
            let l = layout_at(&chrome, &path, width);
            assert_eq!(l["inner"], width, "{args:?}: the window is {width} px wide");
            assert!(
                l["scroll"].as_u64() <= l["inner"].as_u64(),
                "{args:?} at {width} px scrolls sideways: {l}"
            );
            assert!(
                l["labels"].as_u64().unwrap() > 20,
                "{args:?}: labels measured: {l}"
            );
            assert_eq!(
                l["overlaps"],
                serde_json::json!([]),
                "{args:?} at {width} px"
            );
        }
    }
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
    assert!(
        page.contains("change: this window − baseline [95 % Newcombe interval]")
            && page.contains("significance")
    );
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

/// The text of the element with `id` (its first child text up to a tag).
fn by_id<'a>(page: &'a str, id: &str) -> &'a str {
    let open = format!(r#"id="{id}">"#);
    let at = page.find(&open).unwrap_or_else(|| panic!("no #{id}")) + open.len();
    &page[at..at + page[at..].find('<').unwrap()]
}

/// The header names the grammar each turn was graded with (counted per
/// turn, whatever chose it), the zone of the trend and the time window the
/// filters applied; the text and Markdown summaries say the same.
#[test]
fn page_states_the_grammar_zone_and_window_used() {
    let demo = "fixtures/demo.jsonl";
    let af = "fixtures/agentfootprint/interleaved.ndjson";
    let (code, page, err) = html_of(&["summary", "--format", "html", demo, af]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(by_id(&page, "grammar"), "id (3 turns), kb (22 turns)");
    assert!(
        page.contains("each input format&#39;s default"),
        "how it was chosen"
    );
    assert!(!page.contains("kb (default"), "not the --help text");
    assert_eq!(by_id(&page, "window"), "all time");
    assert_eq!(by_id(&page, "zone"), "UTC");
    // A flag sets it for every input.
    let (_, page, _) = html_of(&[
        "summary",
        "--format",
        "html",
        "--markers",
        "numeric",
        demo,
        af,
    ]);
    assert_eq!(by_id(&page, "grammar"), "numeric (25 turns)");
    assert!(page.contains("(--markers, for every input)"));
    let (_, page, _) = html_of(&[
        "summary",
        "--format",
        "html",
        "--marker-regex",
        r"\[(\d+)\]",
        "--marker-base",
        "0",
        demo,
    ]);
    assert_eq!(
        by_id(&page, "grammar"),
        r"regex \[(\d+)\] (base 0) (22 turns)"
    );
    // The window and zone actually applied, and only the turns in it counted.
    let window = [
        "--tz",
        "Asia/Tokyo",
        "--from",
        "2026-08-02",
        "--to",
        "2026-08-03",
    ];
    let (_, page, _) = html_of(&[&["summary", "--format", "html", demo][..], &window[..]].concat());
    assert_eq!(
        by_id(&page, "window"),
        "from 2026-08-02T00:00:00+09:00 to 2026-08-03T00:00:00+09:00 (the end excluded)"
    );
    assert_eq!(by_id(&page, "zone"), "Asia/Tokyo");
    let (_, js, _) = html_of(&[&["summary", "--format", "json", demo][..], &window[..]].concat());
    let js = json(&js);
    let turns = js["totals"]["turns"].as_u64().unwrap();
    assert!(turns > 0 && turns < 22, "{turns}");
    assert_eq!(by_id(&page, "grammar"), format!("kb ({turns} turns)"));
    assert_eq!(js["window"]["from"], "2026-08-01T15:00:00Z");
    assert_eq!(js["window"]["to"], "2026-08-02T15:00:00Z");
    // --since counts back from --now, which also ends the window.
    let (_, page, _) = html_of(&[
        "summary",
        "--format",
        "html",
        "--since",
        "2d",
        "--now",
        "2026-08-03T12:00:00Z",
        demo,
    ]);
    assert_eq!(
        by_id(&page, "window"),
        "from 2026-08-01T12:00:00Z to 2026-08-03T12:00:00Z (the end excluded)"
    );
    for format in ["table", "markdown"] {
        let (code, out, err) =
            html_of(&[&["summary", "--format", format, demo, af][..], &window[..]].concat());
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("time window: from 2026-08-02T00:00:00+09:00 to 2026-08-03T00:00:00+09:00 (the end excluded) · trend by day in Asia/Tokyo"),
            "{format}:\n{out}"
        );
        assert!(
            out.contains(&format!("marker grammar: kb ({turns} turns)")),
            "{format}:\n{out}"
        );
    }
}

/// A trace export is graded with its format's grammar (`numeric`), and the
/// page says so, not the native log's `kb`.
#[test]
fn trace_page_names_the_grammar_it_was_graded_with() {
    let Some(trace) = crate::common::shared("traces/phoenix-openinference-langchain/spans.jsonl")
    else {
        return;
    };
    let (code, page, err) = html_of(&["summary", "--format", "html", trace.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(by_id(&page, "grammar"), "numeric (8 turns)");
}

/// Merged partials state the grammars and the window of all of them.
#[test]
fn merged_page_states_the_grammars_and_window_of_its_partials() {
    let dir = tempfile::tempdir().unwrap();
    let mut parts = Vec::new();
    for (i, log) in [
        "fixtures/demo.jsonl",
        "fixtures/agentfootprint/interleaved.ndjson",
    ]
    .iter()
    .enumerate()
    {
        let p = dir.path().join(format!("p{i}.json"));
        let ps = p.to_str().unwrap().to_owned();
        let (code, _, err) = html_of(&["summary", "--partial", &ps, "--from", "2026-01-01", log]);
        assert_eq!(code, 0, "{err}");
        parts.push(ps);
    }
    let mut args = vec!["merge", "--format", "html"];
    args.extend(parts.iter().map(String::as_str));
    let (code, page, err) = html_of(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(by_id(&page, "grammar"), "id (3 turns), kb (22 turns)");
    assert_eq!(by_id(&page, "window"), "from 2026-01-01T00:00:00Z on");
}

/// `check --html` draws the page `summary` draws with the same flags: the
/// same zone for days and times, the same window, byte for byte.
#[test]
fn check_page_is_the_summary_page_in_the_same_zone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("check.html");
    let file = path.to_str().unwrap();
    let cases: [&[&str]; 4] = [
        &[],
        &["--tz", "Asia/Tokyo"],
        &["--tz", "Asia/Tokyo", "--show-tz", "utc"],
        &["--tz", "America/New_York", "--from", "2026-08-02"],
    ];
    for extra in cases {
        let summary = [
            &["summary", "--format", "html", "--min-rate", "0.5"][..],
            extra,
            &["fixtures/demo.jsonl"],
        ]
        .concat();
        let (code, want, err) = html_of(&summary);
        assert_eq!(code, 0, "{err}");
        let check = [
            &["check", "--min-rate", "0.5", "--html", file][..],
            extra,
            &["fixtures/demo.jsonl"],
        ]
        .concat();
        let (code, _, err) = html_of(&check);
        assert_eq!(code, 0, "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), want, "{extra:?}");
    }
    // In Tokyo the demo's last turns fall on 4 August, and the page says so.
    let (_, page, _) = html_of(&[
        "summary",
        "--format",
        "html",
        "--tz",
        "Asia/Tokyo",
        "fixtures/demo.jsonl",
    ]);
    assert!(page.contains(
        "trend <b>2026-08-01 to 2026-08-04</b> (by day in <b id=\"zone\">Asia/Tokyo</b>)"
    ));
    assert!(
        page.contains("<td>2026-08-04</td>"),
        "the Tokyo day in the trend data"
    );
}

/// The comparison names each number for what it compares, at one
/// precision: baseline → this window (from the two windows' counts), and
/// the change day's before and after (from the series split at that day);
/// the baseline window and the intervals' level are stated.
#[test]
fn each_rate_is_named_for_what_it_compares() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("weeks.jsonl");
    multi_week_log(&log, 42, 12);
    let log = log.to_str().unwrap();
    let flags = [
        "--from",
        "2026-06-29",
        "--compare-from",
        "2026-06-01",
        "--compare-to",
        "2026-06-15",
        "--confidence",
        "0.9",
        log,
    ];
    let (code, js, err) = html_of(&[&["summary", "--format", "json"][..], &flags[..]].concat());
    assert_eq!(code, 0, "{err}");
    let c = json(&js)["compare"].clone();
    let r4 = |v: &serde_json::Value| format!("{:.4}", v.as_f64().unwrap());
    let s4 = |v: &serde_json::Value| format!("{:+.4}", v.as_f64().unwrap());
    let o = &c["overall"];
    let overall = format!(
        "overall: {} → {} (baseline → this window), difference {}, 90 % Newcombe interval [{}, {}]",
        r4(&o["baseline_rate"]),
        r4(&o["current_rate"]),
        s4(&o["difference"]),
        s4(&o["low"]),
        s4(&o["high"])
    );
    let mut drops = Vec::new();
    for g in c["groups"].as_array().unwrap() {
        if g["significant"] == true && g["difference"].as_f64().unwrap() < 0.0 {
            let ch = &g["change"];
            drops.push(format!(
                "significant drop: {}: {} → {} (baseline → this window); change day {}, {} before it and {} from it on",
                g["key"].as_str().unwrap(), r4(&g["baseline_rate"]), r4(&g["current_rate"]),
                ch["since"].as_str().unwrap(), r4(&ch["before_rate"]), r4(&ch["after_rate"])
            ));
        }
    }
    assert!(!drops.is_empty(), "sliding-bot falls: {c}");
    let (_, page, _) = html_of(&[&["summary", "--format", "html"][..], &flags[..]].concat());
    assert!(page.contains(
        "baseline: turns from 2026-06-01T00:00:00Z to 2026-06-15T00:00:00Z (the end excluded)"
    ));
    assert!(page.contains("This window: from 2026-06-29T00:00:00Z on."));
    assert!(page.contains("change: this window − baseline [90 % Newcombe interval]"));
    for want in std::iter::once(&overall).chain(&drops) {
        assert!(page.contains(want.as_str()), "the page lacks {want}");
    }
    // The change day's rates are not the two windows' rates: the page never
    // puts the change day's rates beside "since" alone, as if they were.
    assert!(
        !page.contains(" since 2026-"),
        "a rate pair without its name"
    );
    for format in ["table", "markdown"] {
        let (_, out, _) = html_of(&[&["summary", "--format", format][..], &flags[..]].concat());
        for want in std::iter::once(&overall).chain(&drops) {
            let want = if format == "markdown" {
                want.replace('[', r"\[").replace(']', r"\]")
            } else {
                want.clone()
            };
            assert!(out.contains(&want), "{format} lacks {want}:\n{out}");
        }
    }
}

/// A row's trend and its change against the baseline compare different
/// periods; each says which, and the trend's number is the one its label
/// names: the mean rate of the last third of the window's days − the first third's.
#[test]
fn trend_and_change_in_a_row_say_what_they_compare() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("weeks.jsonl");
    multi_week_log(&log, 42, 12);
    let log = log.to_str().unwrap();
    let flags = [
        "--from",
        "2026-06-29",
        "--compare-from",
        "2026-06-01",
        "--compare-to",
        "2026-06-15",
        log,
    ];
    let (_, js, _) = html_of(&[&["summary", "--format", "json"][..], &flags[..]].concat());
    let js = json(&js);
    let (code, page, err) = html_of(&[&["summary", "--format", "html"][..], &flags[..]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(page.contains("trend in this window (last third − first third of days)"));
    assert!(page.contains("change: this window − baseline [95 % Newcombe interval]"));
    for g in js["groups"].as_array().unwrap() {
        let key = g["key"].as_str().unwrap();
        let rates: Vec<f64> = js["group_days"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["key"] == key)
            .filter_map(|d| d["grounded_rate"].as_f64())
            .collect();
        let k = rates.len().div_ceil(3);
        let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
        let d = mean(&rates[rates.len() - k..]) - mean(&rates[..k]);
        let row = &page[page
            .find(&format!(r#"<th scope="row" class="key">{key}</th>"#))
            .unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        let word = if d > 0.02 {
            "▲ rising"
        } else if d < -0.02 {
            "▼ falling"
        } else {
            "→ steady"
        };
        assert!(
            row.contains(&format!("{word} {d:+.4}</td>")),
            "{key}: {d:+.4}: {row}"
        );
        let change = js["compare"]["groups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["key"] == key)
            .unwrap();
        assert!(
            row.contains(&format!("{:+.4} [", change["difference"].as_f64().unwrap())),
            "{key}: {row}"
        );
    }
}

/// Each group's score distribution, in every human format: the chunks of
/// each kind and the bin of their median score, from the same bins as the JSON.
#[test]
fn score_distribution_per_group_in_every_human_format() {
    let demo = "fixtures/demo.jsonl";
    let (_, js, _) = html_of(&["summary", "--format", "json", demo]);
    let js = json(&js);
    let (_, table, _) = html_of(&["summary", demo]);
    let (_, md, _) = html_of(&["summary", "--format", "markdown", demo]);
    let (_, page, _) = html_of(&["summary", "--format", "html", demo]);
    let scores = &page[page
        .find(r#"id="scores-by-group""#)
        .expect("the per-group section")..];
    let groups = js["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 3);
    for g in groups {
        let key = g["key"].as_str().unwrap();
        let median = |kind: &str| {
            let bins: Vec<u64> = g["retrieval_use"]["scores"][kind]["bins"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_u64().unwrap())
                .collect();
            let n: u64 = bins.iter().sum();
            let mut seen = 0;
            let i = bins
                .iter()
                .position(|c| {
                    seen += c;
                    seen * 2 >= n
                })
                .unwrap();
            (
                n,
                format!("{:.2}-{:.2}", i as f64 * 0.05, (i + 1) as f64 * 0.05),
            )
        };
        let ((c, cm), (u, um)) = (median("cited"), median("uncited"));
        let md_row = format!("| {key} | {c} | {cm} | ");
        assert!(md.contains(&md_row), "markdown lacks {md_row}:\n{md}");
        assert!(
            md.contains(&format!(" | {u} | {um} | ")),
            "markdown: {key} uncited"
        );
        let line = table
            .lines()
            .find(|l| l.contains(key) && l.contains(&cm) && l.contains(&um));
        assert!(line.is_some(), "table lacks {key} {cm} {um}:\n{table}");
        let row = &scores[scores
            .find(&format!(r#"<th scope="row" class="key">{key}</th>"#))
            .unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        for want in [
            format!(r#"<td class="n">{c}</td><td>{cm}</td>"#),
            format!(r#"<td class="n">{u}</td><td>{um}</td>"#),
            r#"<svg class="chart score-mini""#.to_owned(),
        ] {
            assert!(row.contains(&want), "{key}: {want} in {row}");
        }
    }
}

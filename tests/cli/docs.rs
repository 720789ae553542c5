//! The documentation holds together: every relative link and `#anchor` in
//! `README.md`, `ARCHITECTURE.md` and `docs/*.md` resolves, every page of
//! `docs/` is reachable from the README, and the README stays a front door.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files whose links are checked.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of a page outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push(line);
        }
    }
    out
}

/// A line with its inline code spans removed (a link inside backticks is
/// text, not a link).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            out.push(c);
        }
    }
    out
}

/// The targets of the inline links and images of a page: `[text](target)`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        let line = without_code_spans(line);
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].trim().to_owned());
            rest = &after[end + 1..];
        }
    }
    out
}

/// The text a heading renders to: links reduced to their text.
fn heading_text(raw: &str) -> String {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(open) = rest.find('[') {
        let tail = &rest[open..];
        match (tail.find("]("), tail.find(')')) {
            (Some(mid), Some(close)) if mid < close => {
                out.push_str(&rest[..open]);
                out.push_str(&tail[1..mid]);
                rest = &tail[close + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-`
/// and `_` dropped, each space a `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor a page's headings give, repeats numbered as GitHub numbers
/// them (`name`, `name-1`, `name-2` …).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for line in prose(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&heading_text(&line[hashes + 1..]));
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug("Finding turns: filters and time zones"),
        "finding-turns-filters-and-time-zones"
    );
    assert_eq!(slug("--map: logs of any shape"), "--map-logs-of-any-shape");
    assert_eq!(slug("Langfuse OTLP (`otlp`)"), "langfuse-otlp-otlp");
    assert_eq!(
        slug("Trace exports (OpenInference, OpenTelemetry)"),
        "trace-exports-openinference-opentelemetry"
    );
    assert_eq!(
        slug("snake_case and kebab-case"),
        "snake_case-and-kebab-case"
    );
    assert_eq!(
        heading_text("See [check](docs/check.md) now"),
        "See check now"
    );
    let a = anchors("# Title\n\n## Same\n\n```sh\n# not a heading\n```\n\n## Same\n#nohashspace\n");
    assert_eq!(
        a,
        ["title", "same", "same-1"]
            .map(str::to_owned)
            .into_iter()
            .collect()
    );
    assert_eq!(
        links("a [x](a.md) `[y](b.md)` ![p](c.png)\n```\n[z](d.md)\n```\n"),
        ["a.md", "c.png"]
    );
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut checked = 0;
    let mut anchored = 0;
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(path)
            };
            if !file.exists() {
                broken.push(format!(
                    "{name}: {target}: {} does not exist",
                    file.display()
                ));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            anchored += 1;
            if file.extension().is_none_or(|e| e != "md") {
                broken.push(format!(
                    "{name}: {target}: an anchor into a file that is not Markdown"
                ));
                continue;
            }
            let headings = anchors(&std::fs::read_to_string(&file).unwrap());
            if !headings.contains(anchor) {
                broken.push(format!(
                    "{name}: {target}: no heading gives #{anchor} in {}",
                    file.display()
                ));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    // The pages link to each other a great deal: a parser that found no
    // links would pass vacuously.
    assert!(
        checked >= 60 && anchored >= 10,
        "{checked} links, {anchored} anchors"
    );
}

#[test]
fn every_docs_page_is_linked_from_the_readme() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let linked: BTreeSet<String> = links(&readme)
        .into_iter()
        .map(|t| t.split('#').next().unwrap().to_owned())
        .collect();
    // A page may be reached through another docs page; what matters is
    // that none is an orphan.
    let mut reached: BTreeSet<PathBuf> = linked.iter().map(|t| root().join(t)).collect();
    let mut grew = true;
    while grew {
        grew = false;
        for page in reached.clone() {
            if page.extension().is_none_or(|e| e != "md") || !page.exists() {
                continue;
            }
            for t in links(&std::fs::read_to_string(&page).unwrap()) {
                if t.contains("://") {
                    continue;
                }
                let path = t.split('#').next().unwrap();
                if path.is_empty() {
                    continue;
                }
                let p = normalise(&page.parent().unwrap().join(path));
                grew |= reached.insert(p);
            }
        }
    }
    let orphans: Vec<String> = pages()
        .into_iter()
        .filter(|p| p.parent() == Some(root().join("docs").as_path()))
        .filter(|p| !reached.contains(p))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        orphans.is_empty(),
        "not reachable from README.md: {orphans:?}"
    );
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

#[test]
fn the_readme_is_a_front_door() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 400,
        "README.md has {lines} lines: move reference text to docs/"
    );
    // A newcomer finds install, the first command, their role's command and
    // the map of the documentation on the first screen.
    let first_screen: String = readme.lines().take(60).collect::<Vec<_>>().join("\n");
    for needle in [
        "## Install",
        "cargo install",
        "report fixtures/demo.jsonl",
        "| you are | you run |",
        "docs/",
    ] {
        assert!(
            first_screen.contains(needle),
            "not in the first 60 lines: {needle}"
        );
    }
}

/// The README's sample summary is what `summary` prints on the demo log:
/// its lines are the output's first lines, word for word.
#[test]
fn the_readmes_sample_summary_is_the_tools_output() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("$ grounding-audit summary fixtures/demo.jsonl\n")
        .expect("the README shows a summary of the demo log");
    let block = &readme[start..];
    let block = &block[..block.find("```").expect("the sample's fence closes")];
    let sample: Vec<&str> = block.lines().skip(1).collect();
    let out = crate::common::bin()
        .args(["summary", "fixtures/demo.jsonl"])
        .current_dir(root())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let got: Vec<&str> = text.lines().take(sample.len()).collect();
    assert_eq!(sample, got);
}

/// One sample in a page: a `$ grounding-audit ARGS` line of a code block
/// and the lines shown after it (up to the next `$ ` line or the fence).
struct Sample {
    page: String,
    args: Vec<String>,
    shown: Vec<String>,
}

fn samples() -> Vec<Sample> {
    let mut out = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let mut current: Option<Sample> = None;
        for line in text.lines() {
            let fence = line.trim_start().starts_with("```");
            if fence || line.starts_with("$ ") {
                out.extend(current.take());
            }
            if let Some(cmd) = line.strip_prefix("$ grounding-audit ") {
                current = Some(Sample {
                    page: page.display().to_string(),
                    args: cmd.split_whitespace().map(str::to_owned).collect(),
                    shown: Vec::new(),
                });
            } else if let Some(s) = current.as_mut() {
                s.shown.push(line.to_owned());
            }
        }
    }
    out
}

/// Whether `shown` is what the tool printed: each line in order, where a
/// line `…` stands for any number of lines left out.
fn shown_in(shown: &[String], printed: &[&str]) -> Result<(), String> {
    let mut at = 0;
    let mut skipping = false;
    for line in shown {
        if line.trim() == "…" {
            skipping = true;
            continue;
        }
        let found = if skipping {
            printed[at..].iter().position(|p| p == line).map(|i| at + i)
        } else {
            (printed.get(at) == Some(&line.as_str())).then_some(at)
        };
        match found {
            Some(i) => at = i + 1,
            None => return Err(format!("not printed where shown: {line:?}")),
        }
        skipping = false;
    }
    Ok(())
}

/// Every sample run in the docs whose inputs are in the repository is what
/// the tool prints for it, so a sample cannot drift from the binary.
/// Samples over files a reader brings (`a.json`) are left out, by name.
#[test]
fn every_sample_in_the_docs_is_the_tools_output() {
    let mut checked = 0;
    for s in samples() {
        let inputs: Vec<&String> = s.args.iter().filter(|a| a.contains('.')).collect();
        if inputs.is_empty() || !inputs.iter().all(|a| root().join(a).exists()) {
            continue;
        }
        // A file's modification time stands in for missing record times;
        // the docs show it as 2024-06-01T12:00:00Z.
        for input in &inputs {
            let shown_time = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_717_243_200);
            let f = std::fs::File::options()
                .write(true)
                .open(root().join(input));
            if let Ok(f) = f {
                f.set_modified(shown_time).unwrap();
            }
        }
        let out = crate::common::bin()
            .args(&s.args)
            .current_dir(root())
            .env_remove("NO_COLOR")
            .output()
            .unwrap();
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let printed: Vec<&str> = printed.lines().collect();
        if let Err(e) = shown_in(&s.shown, &printed) {
            panic!("{}: $ grounding-audit {}: {e}", s.page, s.args.join(" "));
        }
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} samples checked");
}

/// `a`, `b`, `c`: a list in code spans.
fn spans(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    quoted.join(", ")
}

/// `a`, `b` and `c`.
fn spans_and(items: &[&str]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and `{last}`", spans(rest)),
        _ => spans(items),
    }
}

/// `docs/check.md` names the gates in several lists; each is derived here
/// from the table of gates, so a gate added to the table and not to the
/// page fails this test (as does a list that names a gate no more).
#[test]
fn the_gate_lists_in_the_check_page_are_the_table_of_gates() {
    use grounding_audit::gate::table::{Reach, TABLE, Unit};
    let page = std::fs::read_to_string(root().join("docs/check.md")).unwrap();
    let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let flags: Vec<&str> = TABLE.iter().map(|r| r.flag).collect();
    let keys: Vec<&str> = TABLE.iter().map(|r| r.kind.as_str()).collect();
    let of = |keep: &dyn Fn(&&grounding_audit::gate::table::Row) -> bool| -> Vec<&str> {
        TABLE.iter().filter(keep).map(|r| r.kind.as_str()).collect()
    };
    let flags_of = |reach: &[Reach]| -> Vec<&str> {
        TABLE
            .iter()
            .filter(|r| reach.contains(&r.reach))
            .map(|r| r.flag)
            .collect()
    };
    use grounding_audit::gate::GateKind as K;
    let names = [
        &[K::EVIDENCE.as_str(), K::MIN_TURNS.as_str()][..],
        &keys,
        &[K::INPUT.as_str(), K::CONFIG.as_str()],
    ]
    .concat();
    let counts = [
        &[K::MIN_TURNS.as_str()][..],
        &of(&|r| r.unit == Unit::Count),
        &[K::EVIDENCE.as_str(), K::INPUT.as_str(), K::CONFIG.as_str()],
    ]
    .concat();
    let policy = [&keys[..], &grounding_audit::policy::SETTINGS].concat();
    let expected = [
        format!(
            "at least one of {} (or a `--policy`) is required",
            spans(&flags)
        ),
        format!(
            "each agent's rates hold ({})",
            spans(&flags_of(&[Reach::Rated, Reach::PerAgent]))
        ),
        format!("Each gate has a `gate` ({}) and a scope", spans(&names)),
        format!("integers for counts ({}) and numbers", spans(&counts)),
        format!("snake case: {} (a test", spans_and(&policy)),
        format!(
            "The gates {} are overall in `[defaults]`",
            spans_and(&of(&|r| r.reach == Reach::OwnTable))
        ),
    ];
    for sentence in expected {
        assert!(
            page.contains(&sentence),
            "docs/check.md should say: {sentence}"
        );
    }
    for row in TABLE {
        let cell = format!("{} {}`", row.flag, row.value_name);
        assert!(
            page.contains(&cell),
            "docs/check.md has no row for {}",
            row.flag
        );
    }
}

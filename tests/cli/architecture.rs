//! The layers of the sources, enforced: every `crate::` path (in `use`
//! lines and inline) must point to a module of a lower layer than the module
//! it is written in, or to the module itself. The sources are five crates:
//! the rules (`crates/rules/src`: the leaves, the turn and its row, the
//! grammars, the support checks and the verdicts), reading
//! (`crates/read/src`: sources, dialects and the pipeline), the engine
//! (`crates/engine/src`: accumulators, partials and decisions), presenting
//! (`crates/present/src`: views and renderers) and the binary's crate
//! (`src`, the command line, its resolution and the subcommands). Each
//! re-exports the modules of the crates below under their names, so a
//! module is named alike in all five. Test code (`tests.rs`,
//! `*_tests.rs`, and what follows `#[cfg(test)]` in a file) may reach
//! higher, to build its fixtures. The layers and their jobs are described
//! in ARCHITECTURE.md; an edge that breaks them fails here with the file
//! and line that makes it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module of `src/` and its layer, from the bottom up.
const LAYERS: &[(&str, u32)] = &[
    // Leaves: no module of the crate below them.
    ("exit", 0),
    ("bytes", 0),
    ("keyset", 0),
    ("stats", 0),
    ("escape", 0),
    ("shell", 0),
    ("messages", 0),
    // The turn and its row.
    ("model", 1),
    // The rules: marker grammars, then the verdicts that use them.
    ("markers", 2),
    ("support", 3),
    ("grade", 4),
    ("filter", 5),
    // Reading: bytes into sources, lines into records and turns.
    ("input", 6),
    ("dialect", 7),
    ("pipeline", 8),
    // State that merges.
    ("accumulate", 9),
    ("partial", 10),
    // Judging the state.
    ("compare", 11),
    ("gate", 12),
    ("policy", 13),
    // Presenting it: one view model per subcommand, drawn by a renderer.
    ("view", 14),
    ("render", 15),
    // The command line and its wiring.
    ("cli", 16),
    ("config", 17),
    // A finished run's documents written to their targets, shared by the
    // commands below them.
    ("deliver", 18),
    ("cmd", 19),
    ("lib", 20),
    ("main", 21),
];

/// Edges against the layers that the code still has, each with why, as
/// (from, to, why). The test fails when one of them is gone, so the list
/// only shrinks; it is empty, and a new entry needs a reason in review.
const KNOWN: &[(&str, &str, &str)] = &[];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a line of code names with `crate::`.
fn targets(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `use crate::{a::X, b}`: each path of the group.
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.insert(name);
                }
            }
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            found.insert(name);
        }
    }
    found
}

/// The code lines of a source file, numbered from 1, comments cut off:
/// every line up to its first `#[cfg(test)]` (test code may reach higher).
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .take_while(|line| !line.trim_start().starts_with("#[cfg(test)]"))
        .enumerate()
        .map(|(i, line)| (i + 1, line.split("//").next().unwrap_or("")))
}

/// A source tree: how it is named in messages, and where it is.
type Root = (&'static str, PathBuf);

/// Every edge of the source trees as (from, to) with the places that make it.
fn edges(roots: &[Root]) -> BTreeMap<(String, String), Vec<String>> {
    let mut edges: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (label, src) in roots {
        let mut files = Vec::new();
        rust_files(src, &mut files);
        for file in files {
            let rel = file.strip_prefix(src).unwrap();
            let name = rel.file_name().unwrap().to_str().unwrap();
            if name == "tests.rs" || name.ends_with("_tests.rs") {
                continue;
            }
            let from = top_module(rel);
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, code) in code_lines(&text) {
                for to in targets(code) {
                    if to != from {
                        edges
                            .entry((from.clone(), to))
                            .or_default()
                            .push(format!("{label}/{}:{n}", rel.display()));
                    }
                }
            }
        }
    }
    edges
}

/// The top-level module a file under a source tree belongs to.
fn top_module(rel: &Path) -> String {
    let first = rel.components().next().unwrap().as_os_str().to_str();
    first.unwrap().trim_end_matches(".rs").to_owned()
}

/// The edges that break the layers, with where.
fn breaches(roots: &[Root]) -> Vec<String> {
    let mut bad = Vec::new();
    for ((from, to), places) in edges(roots) {
        let (Some(a), Some(b)) = (layer(&from), layer(&to)) else {
            bad.push(format!(
                "{from} -> {to}: a module missing from LAYERS ({})",
                places[0]
            ));
            continue;
        };
        if b >= a && !KNOWN.iter().any(|(f, t, _)| *f == from && *t == to) {
            bad.push(format!(
                "{from} (layer {a}) -> {to} (layer {b}) at {}",
                places.join(", ")
            ));
        }
    }
    bad
}

/// The binary's crate: the command line and the subcommands.
fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The source tree of the crate under `crates/NAME`.
fn crate_src(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("crates/{name}/src"))
}

/// A crate of the workspace: its sources, its package and the first layer
/// above its own (it holds the layers from the crate below's bound up).
struct Crate {
    label: &'static str,
    package: &'static str,
    tree: PathBuf,
    manifest: PathBuf,
    bound: u32,
}

/// The crates from the bottom up.
fn crates() -> Vec<Crate> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let lib = |label, name: &str, package, bound| Crate {
        label,
        package,
        tree: crate_src(name),
        manifest: root.join(format!("crates/{name}/Cargo.toml")),
        bound,
    };
    vec![
        lib(
            "crates/rules/src",
            "rules",
            "ga-rules",
            layer("input").unwrap(),
        ),
        lib(
            "crates/read/src",
            "read",
            "ga-read",
            layer("accumulate").unwrap(),
        ),
        lib(
            "crates/engine/src",
            "engine",
            "ga-engine",
            layer("view").unwrap(),
        ),
        lib(
            "crates/present/src",
            "present",
            "ga-present",
            layer("cli").unwrap(),
        ),
        Crate {
            label: "src",
            package: "grounding-audit",
            tree: src(),
            manifest: root.join("Cargo.toml"),
            bound: u32::MAX,
        },
    ]
}

fn roots() -> Vec<Root> {
    crates().into_iter().map(|c| (c.label, c.tree)).collect()
}

#[test]
fn every_edge_points_down_a_layer() {
    let bad = breaches(&roots());
    assert!(
        bad.is_empty(),
        "edges against the layers:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_known_exception_still_exists() {
    let all = edges(&roots());
    for (from, to, why) in KNOWN {
        assert!(
            all.contains_key(&(from.to_string(), to.to_string())),
            "{from} -> {to} ({why}) is gone: remove it from KNOWN"
        );
    }
}

#[test]
fn no_module_cycle() {
    // Depth-first search over the module graph, edges of test code aside.
    let all = edges(&roots());
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in all.keys() {
        next.entry(from.as_str()).or_default().push(to.as_str());
    }
    fn visit<'a>(
        m: &'a str,
        next: &BTreeMap<&'a str, Vec<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) {
        if let Some(i) = path.iter().position(|p| *p == m) {
            panic!("module cycle: {} -> {m}", path[i..].join(" -> "));
        }
        if done.contains(m) {
            return;
        }
        path.push(m);
        for to in next.get(m).into_iter().flatten() {
            visit(to, next, path, done);
        }
        path.pop();
        done.insert(m);
    }
    let mut done = BTreeSet::new();
    for m in next.keys() {
        visit(m, &next, &mut Vec::new(), &mut done);
    }
    assert!(done.len() >= 20, "{done:?}");
}

#[test]
fn every_module_has_a_layer() {
    for (label, root) in roots() {
        for entry in std::fs::read_dir(root).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap();
            let module = name.trim_end_matches(".rs");
            assert!(
                layer(module).is_some(),
                "{label}/{name} has no layer in LAYERS"
            );
        }
    }
}

#[test]
fn a_wrong_import_is_caught_with_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("src");
    std::fs::create_dir_all(copy.join("render")).unwrap();
    std::fs::write(copy.join("model.rs"), "use crate::messages::Warnings;\n").unwrap();
    std::fs::write(
        copy.join("grade.rs"),
        "//! crate::cmd in a comment is no edge\nfn f() { let _ = crate::cmd::dispatch; }\n#[cfg(test)]\nmod tests { use crate::cli::Cli; }\n",
    )
    .unwrap();
    std::fs::write(
        copy.join("render").join("mod.rs"),
        "use crate::{model::Row, config};\n",
    )
    .unwrap();
    let bad = breaches(&[("src", copy)]);
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(
        bad[0].starts_with("grade (layer 4) -> cmd (layer 19) at src/grade.rs:2"),
        "{bad:?}"
    );
    assert!(bad[1].starts_with("render (layer 15) -> config"), "{bad:?}");
    assert!(
        !bad.iter().any(|b| b.contains("cli")),
        "test code is exempt: {bad:?}"
    );
}

/// A command module is wiring: at most this many lines (`src/cmd/`).
const CMD_LINES: usize = 300;
/// No function may be longer than this many lines, anywhere in `src/`.
const FN_LINES: usize = 150;

#[test]
fn command_modules_are_wiring_sized() {
    let mut files = Vec::new();
    rust_files(&src().join("cmd"), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > CMD_LINES).then(|| format!("{} has {n} lines", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "over {CMD_LINES} lines: {long:#?}");
}

/// The functions of `text` longer than [`FN_LINES`]: a `fn` at the start of
/// a line (after indentation) runs to the first `}` line at its indentation.
fn long_functions(text: &str) -> Vec<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        let indent = &line[..line.len() - code.len()];
        let is_fn = ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn "]
            .iter()
            .any(|p| code.starts_with(p));
        if !is_fn || code.ends_with(';') {
            continue;
        }
        let close = format!("{indent}}}");
        // Lines from the `fn` line to its closing `}` line, both included.
        if let Some(n) = lines[i + 1..]
            .iter()
            .position(|l| *l == close)
            .map(|e| e + 2)
            && n > FN_LINES
        {
            found.push((i + 1, n));
        }
    }
    found
}

#[test]
fn no_function_is_longer_than_a_screenful_or_two() {
    let mut files = Vec::new();
    for (_, root) in roots() {
        rust_files(&root, &mut files);
    }
    let mut long = Vec::new();
    for f in files {
        for (line, n) in long_functions(&std::fs::read_to_string(&f).unwrap()) {
            long.push(format!("{}:{line}: {n} lines", f.display()));
        }
    }
    assert!(
        long.is_empty(),
        "functions over {FN_LINES} lines: {long:#?}"
    );
    // The rule itself: a 151-line function is found, a 150-line one is not.
    let body = |n: usize| format!("fn f() {{\n{}}}\n", "    x();\n".repeat(n - 2));
    assert_eq!(long_functions(&body(151)), [(1, 151)]);
    assert!(long_functions(&body(150)).is_empty());
}

/// The subcommands of `src/cmd/`: one calling another is a view or an
/// engine part that belongs lower down. The shared helpers beside them
/// (`turns`, `hints`, `mod`) are not commands.
const COMMANDS: &[&str] = &[
    "report",
    "summary",
    "check",
    "explain",
    "inspect",
    "convert",
    "evidence",
    "merge",
    "completions",
];

/// Calls from one command into another that the code still makes, as
/// (from, to, why). The test fails when one is gone, so the list only
/// shrinks; it is empty (what `merge` shares with `summary`, `report` and
/// `check` is in `deliver`), and a new entry needs a reason in review.
const KNOWN_CALLS: &[(&str, &str, &str)] = &[];

/// The command a `src/cmd/` file belongs to (`check/decide.rs` is `check`).
fn command_of(rel: &Path) -> Option<String> {
    let mut parts = rel.components().map(|c| c.as_os_str().to_str().unwrap());
    if parts.next()? != "cmd" {
        return None;
    }
    let name = parts.next()?.trim_end_matches(".rs");
    COMMANDS.contains(&name).then(|| name.to_owned())
}

/// Every call from one command into another, as (from, to) with where.
fn command_calls(src: &Path) -> BTreeMap<(String, String), Vec<String>> {
    let mut files = Vec::new();
    rust_files(&src.join("cmd"), &mut files);
    let mut calls: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let Some(from) = command_of(rel) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, code) in code_lines(&text) {
            for to in COMMANDS.iter().filter(|c| **c != from) {
                let named = [
                    format!("crate::cmd::{to}::"),
                    format!("super::{to}::"),
                    format!("super::super::{to}::"),
                ];
                if named.iter().any(|n| code.contains(n.as_str())) {
                    calls
                        .entry((from.clone(), (*to).to_owned()))
                        .or_default()
                        .push(format!("src/{}:{n}", rel.display()));
                }
            }
        }
    }
    calls
}

#[test]
fn no_command_calls_another() {
    let calls = command_calls(&src());
    let new: Vec<String> = calls
        .iter()
        .filter(|((f, t), _)| !KNOWN_CALLS.iter().any(|(a, b, _)| a == f && b == t))
        .map(|((f, t), at)| format!("{f} -> {t} at {}", at.join(", ")))
        .collect();
    assert!(
        new.is_empty(),
        "commands calling commands:\n{}",
        new.join("\n")
    );
    for (f, t, why) in KNOWN_CALLS {
        assert!(
            calls.contains_key(&((*f).to_owned(), (*t).to_owned())),
            "{f} -> {t} is gone: remove it from KNOWN_CALLS ({why})"
        );
    }
}

/// The compiler keeps the layers of each crate: the rules (layers up to
/// `filter`) in `crates/rules`, reading (`input` to `pipeline`) in
/// `crates/read`, the engine (`accumulate` to `policy`) in `crates/engine`,
/// presenting (`view`, `render`) in `crates/present`, the command line and
/// the subcommands in the binary's crate; each manifest names only the
/// crates below it, and only the binary's names the argument parser. An
/// edge up from the rules to a reader, from reading to an accumulator, from
/// a decision to a view or a renderer, from any of them to the command
/// line, or clap below the command line, does not build. The values flags take from below come through
/// `model::Named`.
#[test]
fn each_crate_holds_its_band_of_layers() {
    let crates = crates();
    let mut floor = 0;
    for (k, c) in crates.iter().enumerate() {
        for entry in std::fs::read_dir(&c.tree).unwrap() {
            let path = entry.unwrap().path();
            let module = top_module(Path::new(path.file_name().unwrap()));
            if module == "lib" {
                continue;
            }
            let l = layer(&module).unwrap_or_else(|| panic!("{}/{module} has no layer", c.label));
            assert!(
                (floor..c.bound).contains(&l),
                "{}/{module} (layer {l}) is in the wrong crate: its layers are {floor} to {}",
                c.label,
                c.bound.saturating_sub(1)
            );
        }
        floor = c.bound;
        let manifest = std::fs::read_to_string(&c.manifest).unwrap();
        let deps = manifest
            .split("[dependencies]")
            .nth(1)
            .expect("a [dependencies] table");
        let deps: Vec<&str> = deps
            .split("\n[")
            .next()
            .unwrap_or_default()
            .lines()
            .collect();
        let names = |name: &str| deps.iter().any(|l| l.trim_start().starts_with(name));
        assert_eq!(
            names("clap"),
            k + 1 == crates.len(),
            "{}: clap belongs to the binary's crate alone",
            c.label
        );
        for above in &crates[k + 1..] {
            assert!(
                !names(above.package),
                "{} depends on {}, a crate above it",
                c.label,
                above.label
            );
        }
    }
}

//! Escaping for untrusted text: ids and messages come from model output and
//! log producers, so nothing they contain may steer a terminal, forge a table
//! row or run as a spreadsheet formula.

use std::borrow::Cow;

/// Code points a reader cannot see or that reorder what is around them:
/// Unicode's `Default_Ignorable_Code_Point` property (DerivedCoreProperties.txt,
/// Unicode 16.0: 4,174 code points), the `Bidi_Control` characters
/// (all inside it), the line and paragraph separators and the interlinear
/// annotation controls. Sorted, inclusive, non-overlapping.
const INVISIBLE: [(u32, u32); 19] = [
    (0x00AD, 0x00AD),   // soft hyphen
    (0x034F, 0x034F),   // combining grapheme joiner
    (0x061C, 0x061C),   // Arabic letter mark (bidi)
    (0x115F, 0x1160),   // Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),   // Khmer inherent vowels
    (0x180B, 0x180F),   // Mongolian variation selectors and vowel separator
    (0x200B, 0x200F),   // zero widths, LRM, RLM (bidi)
    (0x2028, 0x2029),   // line and paragraph separators
    (0x202A, 0x202E),   // bidi embeddings and overrides
    (0x2060, 0x206F),   // word joiner, invisible operators, bidi isolates, deprecated format
    (0x3164, 0x3164),   // Hangul filler
    (0xFE00, 0xFE0F),   // variation selectors
    (0xFEFF, 0xFEFF),   // zero width no-break space (byte-order mark)
    (0xFFA0, 0xFFA0),   // halfwidth Hangul filler
    (0xFFF0, 0xFFF8),   // unassigned, default ignorable
    (0xFFF9, 0xFFFB),   // interlinear annotation controls
    (0x1BCA0, 0x1BCA3), // shorthand format controls
    (0x1D173, 0x1D17A), // musical symbol format controls
    (0xE0000, 0xE0FFF), // tag characters, variation selectors supplement, unassigned
];

/// Characters that must not reach a terminal: C0/C1 controls, DEL, and the
/// invisible and bidi formatting characters of [`INVISIBLE`].
fn unsafe_char(c: char) -> bool {
    let u = c as u32;
    if u < 0xAD {
        return c.is_control();
    }
    c.is_control()
        || INVISIBLE
            .binary_search_by(|&(lo, hi)| {
                if hi < u {
                    std::cmp::Ordering::Less
                } else if lo > u {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
}

/// Text for terminal, text and markdown output: unsafe characters become
/// visible `\u{..}` escapes (tab, newline and carriage return included, so a
/// value stays on one line).
pub fn terminal(s: &str) -> Cow<'_, str> {
    if !s.chars().any(unsafe_char) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Text of several lines for a terminal: each line made safe by
/// [`terminal`], the line breaks kept (a `\r\n` ending is a line break
/// too), so a traceback or a Markdown answer reads as it was written.
pub fn terminal_lines(s: &str) -> String {
    s.lines().map(terminal).collect::<Vec<_>>().join("\n")
}

/// A Markdown table cell: terminal-safe, with `|` escaped and no line breaks;
/// backticks, brackets (links and images) and `<` (HTML) cannot start markup.
pub fn markdown_cell(s: &str) -> String {
    terminal(s)
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('`', "\\`")
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace('<', "&lt;")
}

/// How CSV cells are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Csv {
    /// `--csv-raw`: no formula neutralising.
    pub raw: bool,
    /// Stdout is a terminal: controls, bidi and invisible characters
    /// escaped as in tables.
    pub terminal: bool,
}

impl Csv {
    /// The rule for CSV on stdout: to a terminal escaped as a table is (a
    /// raw `ESC ]52` would write the clipboard); to a file or a pipe the
    /// values exactly, for the program that reads them.
    pub fn for_stdout(raw: bool, stdout_tty: bool) -> Csv {
        Csv {
            raw,
            terminal: stdout_tty,
        }
    }
}

/// A CSV value: on a terminal, [`terminal`]-escaped; then a value that a
/// spreadsheet would read as a formula (leading `=`, `+`, `-`, `@`, tab or
/// carriage return) gets a leading `'` (the OWASP rule) unless raw.
pub fn csv_cell(s: &str, mode: Csv) -> Cow<'_, str> {
    let s = if mode.terminal {
        terminal(s)
    } else {
        Cow::Borrowed(s)
    };
    if !mode.raw && s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{s}"))
    } else {
        s
    }
}

/// Text for XML attributes and content.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push_str(&format!("&#{};", c as u32)),
            // XML 1.0 cannot carry other controls at all, not even escaped.
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            // Nor the noncharacters U+FFFE and U+FFFF.
            '\u{FFFE}' | '\u{FFFF}' => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c if unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Text for HTML (and inline SVG) content and quoted attribute values:
/// markup characters become entities, and the controls, bidi overrides and
/// invisible characters that could reorder or hide what a reader sees become
/// visible `\u{..}` escapes, as on a terminal.
pub fn html(s: &str) -> Cow<'_, str> {
    if !s
        .chars()
        .any(|c| matches!(c, '&' | '<' | '>' | '"' | '\'') || unsafe_char(c))
    {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_escapes_controls_and_bidi() {
        assert_eq!(terminal("ok"), "ok");
        assert_eq!(terminal("a\x1b[31mb"), "a\\u{1b}[31mb");
        assert_eq!(terminal("x\ry"), "x\\u{d}y");
        assert_eq!(terminal("evil\u{202E}txt"), "evil\\u{202e}txt");
    }

    #[test]
    fn terminal_lines_keep_line_breaks_only() {
        assert_eq!(
            terminal_lines("Traceback:\r\n  x\x1b[2J\n\n- item"),
            "Traceback:\n  x\\u{1b}[2J\n\n- item"
        );
    }

    /// The `Default_Ignorable_Code_Point` lines of Unicode 16.0's
    /// DerivedCoreProperties.txt, as written there, then the other
    /// characters the escaper promises: bidi controls (all ignorable
    /// already), line and paragraph separators, interlinear annotations.
    const IGNORABLE: &str = "00AD 034F 061C 115F..1160 17B4..17B5 180B..180D 180E 180F \
        200B..200F 202A..202E 2060..2064 2065 2066..206F 3164 FE00..FE0F FEFF FFA0 \
        FFF0..FFF8 1BCA0..1BCA3 1D173..1D17A E0000 E0001 E0002..E001F E0020..E007F \
        E0080..E00FF E0100..E01EF E01F0..E0FFF";
    const ALSO: &str = "061C 200E 200F 202A..202E 2066..2069 2028 2029 FFF9..FFFB";

    fn listed() -> Vec<std::ops::RangeInclusive<u32>> {
        let hex = |h: &str| u32::from_str_radix(h, 16).unwrap();
        IGNORABLE
            .split_whitespace()
            .chain(ALSO.split_whitespace())
            .map(|r| {
                let (lo, hi) = r.split_once("..").unwrap_or((r, r));
                hex(lo)..=hex(hi)
            })
            .collect()
    }

    #[test]
    fn every_invisible_and_bidi_character_is_escaped_and_nothing_else() {
        let (listed, mut escaped) = (listed(), 0);
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let s = c.to_string();
            let want = c.is_control() || listed.iter().any(|r| r.contains(&(c as u32)));
            let shown = terminal(&s);
            if want {
                assert_eq!(
                    shown,
                    format!("\\u{{{:x}}}", c as u32),
                    "U+{:04X}",
                    c as u32
                );
                escaped += 1;
            } else {
                assert_eq!(shown, s, "U+{:04X} is not to be escaped", c as u32);
            }
        }
        // 65 controls, 4174 default ignorables, 2 separators, 3 annotations.
        assert_eq!(escaped, 65 + 4174 + 2 + 3);
        for ordinary in [
            "abc",
            "é",
            "e\u{301}",
            "中文",
            "한국어",
            "👍",
            "עברית",
            "مرحبا",
        ] {
            assert_eq!(terminal(ordinary), ordinary);
        }
    }

    #[test]
    fn csv_neutralises_formulas() {
        let (cooked, raw) = (Csv::default(), Csv::for_stdout(true, false));
        assert_eq!(csv_cell("=1+1", cooked), "'=1+1");
        assert_eq!(csv_cell("@SUM(A1)", cooked), "'@SUM(A1)");
        assert_eq!(csv_cell("-2", cooked), "'-2");
        assert_eq!(csv_cell("=1+1", raw), "=1+1");
        assert_eq!(csv_cell("bot", cooked), "bot");
    }

    #[test]
    fn csv_escapes_controls_on_a_terminal_only() {
        let osc52 = "x\u{1b}]52;c;aGk=\u{7}\u{202e}";
        for raw in [false, true] {
            let piped = Csv::for_stdout(raw, false);
            assert_eq!(csv_cell(osc52, piped), osc52, "a pipe gets the bytes");
            let tty = Csv::for_stdout(raw, true);
            assert!(tty.terminal);
            assert_eq!(csv_cell(osc52, tty), "x\\u{1b}]52;c;aGk=\\u{7}\\u{202e}");
        }
        // Escaped first, so a leading tab is still seen as a formula start.
        assert_eq!(csv_cell("\t=1", Csv::for_stdout(false, true)), "\\u{9}=1");
        assert_eq!(
            csv_cell("=\u{1b}", Csv::for_stdout(false, true)),
            "'=\\u{1b}"
        );
    }

    #[test]
    fn markdown_cells_cannot_add_columns() {
        assert_eq!(markdown_cell("a|b\nc"), "a\\|b\\\\u{a}c");
        assert_eq!(
            markdown_cell("![x](http://e/p.png)"),
            "!\\[x\\](http://e/p.png)"
        );
    }

    #[test]
    fn html_escapes_markup_quotes_and_bidi() {
        assert_eq!(html("bot-1"), "bot-1");
        assert_eq!(
            html("<script>alert('x')</script>\"&"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;"
        );
        assert_eq!(html("a\u{202E}b\u{2066}\n"), "a\\u{202e}b\\u{2066}\\u{a}");
    }

    #[test]
    fn xml_escapes() {
        assert_eq!(
            xml("<a b=\"c\">&\u{1}"),
            "&lt;a b=&quot;c&quot;&gt;&amp;\\u{1}"
        );
        // Not XML 1.0 characters: made visible instead of breaking the document.
        assert_eq!(xml("a\u{FFFE}\u{FFFF}\u{1b}"), "a\\u{fffe}\\u{ffff}\\u{1b}");
        assert_eq!(xml("x\u{202E}y"), "x\\u{202e}y");
    }
}

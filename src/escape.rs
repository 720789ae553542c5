//! Escaping for untrusted text: ids and messages come from model output and
//! log producers, so nothing they contain may steer a terminal, forge a table
//! row or run as a spreadsheet formula.

use std::borrow::Cow;

/// Characters that must not reach a terminal: C0/C1 controls, DEL, and the
/// Unicode bidi and invisible formatting controls.
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{2028}' | '\u{2029}')
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

/// A CSV value that a spreadsheet would read as a formula (leading `=`, `+`,
/// `-`, `@`, tab or carriage return) gets a leading `'` (the OWASP rule).
pub fn csv_cell(s: &str, raw: bool) -> Cow<'_, str> {
    if !raw && s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
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
    fn csv_neutralises_formulas() {
        assert_eq!(csv_cell("=1+1", false), "'=1+1");
        assert_eq!(csv_cell("@SUM(A1)", false), "'@SUM(A1)");
        assert_eq!(csv_cell("-2", false), "'-2");
        assert_eq!(csv_cell("=1+1", true), "=1+1");
        assert_eq!(csv_cell("bot", false), "bot");
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

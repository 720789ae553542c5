//! The field map: `--map FIELD=POINTER`, `--map-file` (JSON or a small
//! TOML) and JSON Pointers, checked and kept as the user gave them.

use super::{CHUNK_FIELDS, Container, N_CHUNK, N_TOOL, N_TOP, TOOL_FIELDS, TURN_FIELDS};

/// Where each field lives: a pointer per field, and which ones the user
/// gave (only those must resolve somewhere).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldMap {
    pub turn: [String; N_TOP],
    pub chunk: [String; N_CHUNK],
    pub tool: [String; N_TOOL],
    /// (`chunk.id`-style name, pointer) of every field the user mapped, in
    /// the order given (a later mapping of the same field replaces it).
    pub explicit: Vec<(String, String)>,
    /// (turn field, value) of every constant (`--set FIELD=VALUE`): the
    /// field has that value on every line, read from no pointer.
    pub constants: Vec<(String, String)>,
}

/// The turn fields `--set` may give a constant: those that say where a
/// turn came from, never one that tells turns apart or holds what they say.
pub const SETTABLE: [&str; 4] = ["agent_id", "conversation_id", "channel", "created_at"];

impl Default for FieldMap {
    fn default() -> Self {
        FieldMap {
            turn: TURN_FIELDS.map(|(_, p)| p.to_owned()),
            chunk: CHUNK_FIELDS.map(|(_, p)| p.to_owned()),
            tool: TOOL_FIELDS.map(|(_, p)| p.to_owned()),
            explicit: Vec::new(),
            constants: Vec::new(),
        }
    }
}

/// Every name `--map` accepts, for messages.
pub fn field_names() -> String {
    let mut names: Vec<String> = TURN_FIELDS.iter().map(|(n, _)| (*n).to_owned()).collect();
    names.extend(CHUNK_FIELDS.iter().map(|(n, _)| format!("chunk.{n}")));
    names.extend(TOOL_FIELDS.iter().map(|(n, _)| format!("tool.{n}")));
    names.join(", ")
}

impl FieldMap {
    /// Places `field` at `pointer`. The field is a turn field, `chunk.F` or
    /// `tool.F`; the pointer must be a JSON Pointer (`/a/b/0`).
    pub fn set(&mut self, field: &str, pointer: &str) -> Result<(), String> {
        let bare = if field == "chunks" {
            Container::split(pointer)
                .map_err(|e| format!("--map {field}={pointer}: {e}"))?
                .1
        } else if Container::split(pointer).is_ok_and(|(c, _)| !c.is_array()) {
            return Err(format!(
                "--map {field}={pointer}: the json: and keyed: prefixes are for chunks only"
            ));
        } else {
            pointer
        };
        parse_pointer(bare).map_err(|e| format!("--map {field}={pointer}: {e}"))?;
        let slot = if let Some(f) = field.strip_prefix("chunk.") {
            CHUNK_FIELDS
                .iter()
                .position(|(n, _)| *n == f)
                .map(|i| &mut self.chunk[i])
        } else if let Some(f) = field.strip_prefix("tool.") {
            TOOL_FIELDS
                .iter()
                .position(|(n, _)| *n == f)
                .map(|i| &mut self.tool[i])
        } else {
            TURN_FIELDS
                .iter()
                .position(|(n, _)| *n == field)
                .map(|i| &mut self.turn[i])
        };
        let Some(slot) = slot else {
            return Err(format!(
                "--map {field}={pointer}: unknown field `{field}` (one of {})",
                field_names()
            ));
        };
        *slot = pointer.to_owned();
        self.explicit.retain(|(f, _)| f != field);
        self.explicit.push((field.to_owned(), pointer.to_owned()));
        Ok(())
    }

    /// Gives `field` the constant `value` on every line (`--set`).
    pub fn set_constant(&mut self, field: &str, value: &str) -> Result<(), String> {
        if !SETTABLE.contains(&field) {
            return Err(format!(
                "--set {field}={value}: `{field}` cannot be a constant (one of {})",
                SETTABLE.join(", ")
            ));
        }
        if field == "created_at" {
            super::values::parse_time(value).map_err(|e| format!("--set {field}={value}: {e}"))?;
        }
        if value.is_empty() {
            return Err(format!("--set {field}=: the value is empty"));
        }
        self.constants.retain(|(f, _)| f != field);
        self.constants.push((field.to_owned(), value.to_owned()));
        Ok(())
    }

    /// Applies one `FIELD=VALUE` argument of `--set`.
    pub fn set_constant_arg(&mut self, arg: &str) -> Result<(), String> {
        let (field, value) = arg.split_once('=').ok_or_else(|| {
            format!("--set {arg}: expected FIELD=VALUE, e.g. agent_id=support-bot")
        })?;
        self.set_constant(field.trim(), value.trim())
    }

    /// Applies one `FIELD=POINTER` argument.
    pub fn set_arg(&mut self, arg: &str) -> Result<(), String> {
        let (field, pointer) = arg
            .split_once('=')
            .ok_or_else(|| format!("--map {arg}: expected FIELD=POINTER, e.g. reply=/answer"))?;
        self.set(field.trim(), pointer.trim())
    }

    /// Reads a map file: JSON (an object of `"field": "/pointer"`, with
    /// `"chunk"` and `"tool"` objects or dotted names) or a small TOML
    /// (`field = "/pointer"` lines, `[chunk]`/`[tool]` tables or dotted
    /// keys, `#` comments).
    pub fn read_file(&mut self, text: &str) -> Result<(), String> {
        let trimmed = text.trim_start_matches('\u{feff}').trim_start();
        let pairs = if trimmed.starts_with('{') {
            json_pairs(trimmed)?
        } else {
            toml_pairs(trimmed)?
        };
        for (field, pointer) in pairs {
            match field.strip_prefix("set.") {
                Some(f) => self.set_constant(f, &pointer)?,
                None => self.set(&field, &pointer)?,
            }
        }
        Ok(())
    }

    /// True when nothing was mapped or set.
    pub fn is_empty(&self) -> bool {
        self.explicit.is_empty() && self.constants.is_empty()
    }

    /// The fields both mapped and set: a field has one source.
    pub fn conflicts(&self) -> Vec<&str> {
        self.constants
            .iter()
            .filter(|(f, _)| self.explicit.iter().any(|(e, _)| e == f))
            .map(|(f, _)| f.as_str())
            .collect()
    }
}

fn json_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let mut out = Vec::new();
    let obj = v.as_object().ok_or("expected a JSON object")?;
    for (k, v) in obj {
        match v {
            serde_json::Value::String(p) => out.push((k.clone(), p.clone())),
            serde_json::Value::Object(inner) if k == "chunk" || k == "tool" || k == "set" => {
                for (f, p) in inner {
                    let p = p
                        .as_str()
                        .ok_or_else(|| format!("`{k}.{f}`: expected a pointer string"))?;
                    out.push((format!("{k}.{f}"), p.to_owned()));
                }
            }
            _ => return Err(format!("`{k}`: expected a pointer string")),
        }
    }
    Ok(out)
}

fn toml_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut table = String::new();
    for (n, raw) in text.lines().enumerate() {
        let line = strip_toml_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        let at = || format!("line {}", n + 1);
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.trim().trim_matches('"').to_owned();
            if !matches!(table.as_str(), "chunk" | "tool" | "map" | "turn" | "set") {
                return Err(format!(
                    "{}: unknown table [{table}] (use [chunk], [tool], [set] or none)",
                    at()
                ));
            }
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("{}: expected `field = \"/pointer\"`", at()))?;
        let key = key.trim().trim_matches('"');
        let value = value.trim();
        let value = serde_json::from_str::<String>(value)
            .or_else(|_| {
                value
                    .strip_prefix('\'')
                    .and_then(|v| v.strip_suffix('\''))
                    .map(str::to_owned)
                    .ok_or(())
            })
            .map_err(|()| format!("{}: the pointer must be a quoted string", at()))?;
        let field = match table.as_str() {
            "chunk" | "tool" | "set" => format!("{table}.{key}"),
            _ => key.to_owned(),
        };
        out.push((field, value));
    }
    Ok(out)
}

/// A `#` starts a comment unless it is inside a quoted string.
fn strip_toml_comment(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// The reference tokens of a JSON Pointer: `/a~1b/0` → `["a/b", "0"]`.
pub fn parse_pointer(p: &str) -> Result<Vec<String>, String> {
    let Some(rest) = p.strip_prefix('/') else {
        return Err(if p.is_empty() {
            "the empty pointer names the whole line, not a field".to_owned()
        } else {
            format!("`{p}` is not a JSON Pointer (it must start with `/`, e.g. /answer)")
        });
    };
    rest.split('/')
        .map(|t| {
            if t.contains('~') {
                let ok = t
                    .match_indices('~')
                    .all(|(i, _)| matches!(t.as_bytes().get(i + 1), Some(b'0' | b'1')));
                if !ok {
                    return Err(format!("`{p}`: `~` must be followed by 0 or 1"));
                }
                Ok(t.replace("~1", "/").replace("~0", "~"))
            } else {
                Ok(t.to_owned())
            }
        })
        .collect()
}

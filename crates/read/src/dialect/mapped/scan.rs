//! The fast reader of a mapped line: the byte cursor the native reader is
//! built on follows the trie through the line and fills the same
//! [`Caps`] as serde_json's visitors ([`super::walk`]).
//!
//! It reads only lines it is sure of and returns `None` for any other, which
//! serde_json then reads from the start. Where the visitors take a value as
//! raw text or skip it, the cursor checks it exactly as serde_json does.
//! Where they *parse* a value (a key; a scalar met on a mapped path, which
//! serde_json reads as a number or a decoded string), the cursor accepts
//! only what cannot fail there: keys and such strings without an escape
//! (serde_json rejects a lone surrogate in them), and such numbers without
//! an exponent and short enough never to overflow.

use super::{Caps, Elements, Leaf, Mapped, N_CHUNK, Node, Raw};
use crate::dialect::cursor::{Cursor, MAX_DEPTH};

impl Mapped {
    /// One pass over `line` with the byte cursor into `caps`; `None` when
    /// serde_json must read it (`caps` then holds a part of the line).
    pub(super) fn scan<'a>(&self, line: &'a str, caps: &mut Caps<'a>) -> Option<()> {
        let mut p = Cursor::new(line);
        p.ws();
        if p.peek()? != b'{' {
            return None;
        }
        p.walk(self, &self.top, caps, 0)?;
        p.ws();
        (p.i == p.b.len()).then_some(())
    }
}

impl<'a> Cursor<'a> {
    /// A value on a mapped path, below a node that is no leaf: an object's
    /// keys and an array's indexes are followed; a scalar is only read.
    fn walk(&mut self, m: &Mapped, node: &Node, caps: &mut Caps<'a>, depth: u32) -> Option<()> {
        self.follow(node, depth, |p, n| p.at_node(m, n, caps, depth + 1))
            .map(drop)
    }

    /// The members or elements of a value at `node`: each one on the trie
    /// (by key or by index) handed to `child`, the others skipped; a scalar
    /// is only read. True when it is an object.
    fn follow(
        &mut self,
        node: &Node,
        depth: u32,
        mut child: impl FnMut(&mut Self, &Node) -> Option<()>,
    ) -> Option<bool> {
        match self.peek()? {
            b'{' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                self.members_indexed(&node.keys, &mut 0, |p, key, at| {
                    match node.child_at(at, key) {
                        Some(n) => child(p, n).map(|()| 0),
                        None => p.skip(depth + 1).map(|()| 0),
                    }
                })?;
                Some(true)
            }
            b'[' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                if !self.open_array()? {
                    let mut i = 0;
                    loop {
                        match node.at_index(i) {
                            Some(n) => child(self, n)?,
                            None => self.skip(depth + 1)?,
                        }
                        if !self.next_element()? {
                            break;
                        }
                        i += 1;
                    }
                }
                Some(false)
            }
            _ => self.parsed_scalar().map(|()| false),
        }
    }

    /// The value at a trie node: kept raw, a chunks or tools array, or
    /// followed deeper.
    fn at_node(&mut self, m: &Mapped, node: &Node, caps: &mut Caps<'a>, depth: u32) -> Option<()> {
        match node.leaf {
            // A field met twice is refused by serde_json's reader, which
            // words the reason.
            Some(Leaf::Raw(slot)) if caps.top[slot].is_some() => return None,
            Some(Leaf::Chunks) if caps.chunks.is_some() => return None,
            Some(Leaf::Tools) if caps.tools.is_some() => return None,
            Some(Leaf::Raw(slot)) => caps.top[slot] = Some(self.kept(depth)?),
            Some(Leaf::Chunks) => self.each(Elements::new(m, false), caps, depth)?,
            Some(Leaf::Tools) => self.each(Elements::new(m, true), caps, depth)?,
            None => self.walk(m, node, caps, depth)?,
        }
        Some(())
    }

    /// A chunks or tools value: an array read element by element, or what
    /// else it is.
    fn each(&mut self, mut out: Elements<'_, 'a>, caps: &mut Caps<'a>, depth: u32) -> Option<()> {
        let found = match self.peek()? {
            b'[' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                let trie = out.trie();
                if !self.open_array()? {
                    loop {
                        let mut fields = [None; N_CHUNK];
                        let is_object = self.element(trie, &mut fields, depth + 1)?;
                        out.push(caps, is_object, fields);
                        if !self.next_element()? {
                            break;
                        }
                    }
                }
                out.finish(caps);
                return Some(());
            }
            b'{' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                self.object(|_| None, &mut 0, |p, _| p.skip(depth + 1))?;
                Some("an object")
            }
            b't' | b'f' => {
                self.parsed_scalar()?;
                Some("a boolean")
            }
            b'n' => {
                self.parsed_scalar()?;
                None
            }
            b'"' => {
                let start = self.i;
                self.parsed_scalar()?;
                Some(super::container::string_kind(&self.b[start..self.i]))
            }
            _ => {
                self.parsed_scalar()?;
                Some("a number")
            }
        };
        caps.not_array(out.tools, found);
        Some(())
    }

    /// One element of a chunks or tools array, its fields found with
    /// `node`'s trie; true when it is an object.
    fn element(
        &mut self,
        node: &Node,
        fields: &mut [Option<Raw<'a>>; N_CHUNK],
        depth: u32,
    ) -> Option<bool> {
        self.follow(node, depth, |p, n| match n.leaf {
            Some(Leaf::Raw(slot)) => {
                if fields[slot].is_some() {
                    return None;
                }
                fields[slot] = Some(p.kept(depth + 1)?);
                Some(())
            }
            _ => p.element(n, fields, depth + 1).map(drop),
        })
    }

    /// A value kept raw, with the escapes of a string.
    fn kept(&mut self, depth: u32) -> Option<Raw<'a>> {
        let (text, escapes) = self.slice_escapes(depth)?;
        Some(Raw::checked(text, escapes))
    }

    /// A scalar that serde_json parses (not only checks): a string without
    /// an escape, a literal, or a number without an exponent of at most 100
    /// characters (no such number overflows an `f64`).
    fn parsed_scalar(&mut self) -> Option<()> {
        let start = self.i;
        match self.peek()? {
            b'"' => {
                self.i += 1;
                if self.string()? {
                    return None;
                }
            }
            b't' => {
                self.literal(b"true")?;
            }
            b'f' => {
                self.literal(b"false")?;
            }
            b'n' => {
                self.literal(b"null")?;
            }
            b'-' | b'0'..=b'9' => {
                self.number()?;
                let text = &self.b[start..self.i];
                if text.len() > 100 || text.iter().any(|&c| c == b'e' || c == b'E') {
                    return None;
                }
            }
            _ => return None,
        }
        Some(())
    }
}

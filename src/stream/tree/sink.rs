//! How the tree grows as the reader reports what it found: each value placed,
//! checked where a violation is certain, and its pointer reported when complete.

use super::{Aside, Frame, INERT, Open, Tree};
use crate::pointer::{escape_into, needs_escape};
use crate::reshape::{self, read as ann};
use crate::stream::json::{Kind, Sink};
use serde_json::{Map, Value};

/// Most members a closed object is given room for before any arrives.
const ROOM: usize = 32;

impl Sink for Tree<'_> {
    fn start(&mut self, kind: Kind) {
        let ctx = self.child(kind);
        if ctx.report && !(ctx.drops_null && kind == Kind::Null) {
            self.check_kind(ctx, kind);
        }
        match kind {
            Kind::Object | Kind::Array => {
                let object = kind == Kind::Object;
                // A closed object gets room for its declared members at once (up
                // to a few dozen: a wide schema says nothing about how many come).
                let empty = if object {
                    let room = ctx.shape.zip(self.shapes.as_ref()).map_or(0, |(s, all)| all.key_count(s));
                    Value::Object(Map::with_capacity(room.min(ROOM)))
                } else {
                    Value::Array(Vec::new())
                };
                let at_root = self.whole && self.frames.is_empty() && self.aside.is_none();
                let union = ctx.ann.filter(|a| at_root || ann::is_union(a));
                let aside = self.aside.is_none() && union.is_some_and(|a| at_root || self.has_markers(a));
                let own = if aside || self.aside.is_some() { INERT } else { ctx };
                match union.filter(|_| aside) {
                    Some(a) => self.aside = Some(Aside { depth: self.frames.len(), value: empty, ann: a, ctx }),
                    None => self.insert(empty),
                }
                let path_len = self.path.len();
                if own.report {
                    let mut p = std::mem::take(&mut self.path);
                    self.write_seg(&mut p, ctx.seg);
                    self.path = p;
                }
                let envelope = object && self.frames.is_empty() && self.wrapped;
                let mut f = self.spare.pop().unwrap_or_else(|| Frame {
                    object,
                    ctx: own,
                    path_len,
                    next: 0,
                    key: String::new(),
                    token: String::new(),
                    member: None,
                    needed: 0,
                    dropped: Vec::new(),
                    envelope,
                });
                (f.object, f.ctx, f.path_len, f.next, f.envelope, f.member, f.needed) =
                    (object, own, path_len, 0, envelope, None, 0);
                f.key.clear();
                f.token.clear();
                f.dropped.clear();
                self.frames.push(f);
            }
            Kind::String => {
                let (members, room) = ctx
                    .shape
                    .filter(|_| ctx.report)
                    .zip(self.shapes.as_ref())
                    .map_or((None, None), |(s, shapes)| shapes.strings(s));
                let restricted = members.is_some();
                self.members.clear();
                self.members.extend(members.unwrap_or_default());
                self.sofar.clear();
                // Strings arrive in pieces: room for a few spares reallocations.
                self.insert(Value::String(String::with_capacity(24)));
                self.string = Some(Open { ctx, restricted, room });
                if restricted && self.members.is_empty() {
                    self.chunk("");
                }
            }
            Kind::Number | Kind::Bool | Kind::Null => self.pending = Some(ctx),
        }
    }

    fn chunk(&mut self, text: &str) {
        if let Some(s) = self.open_string() {
            s.push_str(text);
        }
        if let Some(open) = self.string.as_mut()
            && let Some(room) = open.room
        {
            let n = text.chars().count();
            open.room = room.checked_sub(n);
            if open.room.is_none() {
                let seg = open.ctx.seg;
                self.too_long(seg);
            }
        }
        let Some(open) = self.string.as_mut().filter(|o| o.restricted) else { return };
        // The members left all start with the text before this piece: only
        // the piece is compared (linear in the string, however it is cut).
        let from = self.sofar.len();
        self.sofar.push_str(text);
        let piece = text.as_bytes();
        self.members.retain(|m| m.as_bytes().get(from..).is_some_and(|rest| rest.starts_with(piece)));
        if self.members.is_empty() {
            open.restricted = false;
            let seg = open.ctx.seg;
            self.no_member(seg);
        }
    }

    fn key(&mut self, key: &str) {
        let Some(f) = self.frames.last_mut() else { return };
        f.key.clear();
        f.key.push_str(key);
        f.token.clear();
        if needs_escape(key) {
            escape_into(&mut f.token, key);
        }
        let Some((s, shapes)) = f.ctx.shape.zip(self.shapes.as_mut()) else {
            f.member = None;
            return;
        };
        let member = shapes.member(s, key);
        f.member = member.shape;
        f.needed += usize::from(member.needed);
        if f.ctx.report && !member.allowed {
            let message =
                format!("member {} is not allowed: the schema closes this object", Value::String(key.to_owned()));
            self.violate(self.path.clone(), message);
        }
    }

    fn scalar(&mut self, value: Value) {
        let Some(ctx) = self.pending.take() else { return };
        if value.is_null() && ctx.drops_null {
            let key = self.frames.last_mut().map(|f| std::mem::take(&mut f.key)).unwrap_or_default();
            let inserted = self.top().and_then(|v| v.as_object()).is_some_and(|m| m.contains_key(&key));
            let Some(f) = self.frames.last_mut() else { return };
            // Each name once: the list stays as short as the rewritten members.
            if f.dropped.contains(&key) || inserted {
                if self.repeated.is_none() {
                    self.repeated = Some((self.path.clone(), key));
                }
            } else {
                f.dropped.push(key);
            }
            return;
        }
        if ctx.report {
            if let Some(why) = ctx.shape.zip(self.shapes.as_ref()).and_then(|(s, shapes)| shapes.refuses(s, &value)) {
                self.violate(self.pointer(ctx.seg), why);
            }
            self.report(ctx.seg);
        }
        self.insert(value);
    }

    fn end(&mut self) {
        if let Some(open) = self.string.take() {
            // The members left start with the text: one of them is it when as long.
            if open.restricted && !self.members.iter().any(|m| m.len() == self.sofar.len()) {
                let message =
                    format!("{} is not one of the `enum` or `const` values", Value::String(self.sofar.clone()));
                self.violate(self.pointer(open.ctx.seg), message);
            }
            if open.ctx.report {
                let least = open.ctx.shape.zip(self.shapes.as_ref()).map_or(0, |(s, all)| all.min_len(s));
                if least > 0 && self.open_string().is_some_and(|t| t.chars().count() < least) {
                    let message = format!("the string is shorter than the schema requires (`minLength`: {least})");
                    self.violate(self.pointer(open.ctx.seg), message);
                }
                self.report(open.ctx.seg);
            }
            return;
        }
        if let Some(f) = self.frames.last().filter(|f| f.ctx.report)
            && let Some((s, shapes)) = f.ctx.shape.zip(self.shapes.as_ref())
        {
            let (items, names) = shapes.least(s);
            if !f.object && f.next < items {
                let message =
                    format!("the array ended with {} of the {items} items the schema requires (`minItems`)", f.next);
                self.violate(self.path.clone(), message);
            } else if f.object && f.needed < names {
                self.missing_member(s);
            }
        }
        let Some(f) = self.frames.pop() else { return };
        if f.ctx.report {
            self.completed.push_str(&self.path);
            self.ends.push(self.completed.len());
        }
        self.path.truncate(f.path_len);
        self.spare.push(f);
        if self.aside.as_ref().is_some_and(|a| a.depth == self.frames.len())
            && let Some(a) = self.aside.take()
        {
            let emission = self.emission;
            let accepts = |at: &str, y: &Value| emission.sent_accepts(at, y);
            let v = match &emission.reshape {
                Some(_) if self.whole => match emission.undo(a.value) {
                    Ok(v) => {
                        self.whole_done = true;
                        v
                    }
                    // No inverse (a repeated key, a JSON text that does not
                    // parse): no answer to show; `finish` reports the error.
                    Err(_) => return,
                },
                Some(root) => reshape::undo_at(a.value, a.ann, root, &accepts),
                None => a.value,
            };
            if a.ctx.report {
                let mut at = self.pointer(a.ctx.seg);
                self.report_all(&v, &mut at);
            }
            self.insert(v);
        }
    }
}

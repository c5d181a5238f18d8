//! The answer read so far, kept as one `Value` that grows in place: every open
//! container and the open string are the last child of their parent, so
//! reaching them costs the depth, never the size. Reversible rewrites are
//! undone as the value arrives wherever that is decidable (a rewritten optional
//! member read as `null` is never inserted; the wrapped root is read through
//! its `value`); a rewritten union whose branch needs the whole value is read
//! aside and undone when it is complete. The caller's schema is checked where
//! a violation is already certain ([`Shapes`]).

use super::json::Kind;
use super::shape::{ShapeId, Shapes};
use crate::pointer::{escape_into, index_into};
use crate::reshape::read as ann;
use serde_json::Value;
use std::collections::HashMap;

mod sink;

/// Where a value sits in its parent, for its JSON Pointer.
#[derive(Debug, Clone, Copy)]
enum Seg {
    /// The answer's root (also the `value` of a wrapped root).
    Root,
    /// The parent object's current member.
    Key,
    Index(usize),
}

/// What is known about a value from where it sits.
#[derive(Debug, Clone, Copy)]
struct Ctx<'e> {
    seg: Seg,
    /// Part of the answer: its pointer is reported and the schema checked.
    report: bool,
    /// The reshape annotation that applies, if any.
    ann: Option<&'e Value>,
    shape: Option<ShapeId>,
    /// A `null` here is a rewritten optional member's absence.
    drops_null: bool,
}

const INERT: Ctx<'static> = Ctx { seg: Seg::Root, report: false, ann: None, shape: None, drops_null: false };

#[derive(Debug)]
struct Frame<'e> {
    object: bool,
    ctx: Ctx<'e>,
    /// `path`'s length before this container's token was appended.
    path_len: usize,
    /// Arrays: the index of the next element.
    next: usize,
    /// Objects: the current member's name, and its pointer token when escaping
    /// changes it (empty otherwise: the name is the token).
    key: String,
    token: String,
    /// The current member's shape.
    member: Option<ShapeId>,
    /// Objects: how many members came that every alternative requires (a
    /// repeated one counts again, which can only hide a missing one).
    needed: usize,
    /// Members dropped as `null` (a name that comes again is a repeated name).
    dropped: Vec<String>,
    /// The wrapped root's `{"value": …}`: only `value` is the answer.
    envelope: bool,
}

/// A rewritten union read aside until it is complete.
#[derive(Debug)]
struct Aside<'e> {
    /// `frames.len()` when it started (its own frame sits there).
    depth: usize,
    value: Value,
    ann: &'e Value,
    ctx: Ctx<'e>,
}

/// The open string value.
#[derive(Debug)]
struct Open<'e> {
    ctx: Ctx<'e>,
    /// Restricted to `enum` members: [`Tree::members`] holds those it may
    /// still become, [`Tree::sofar`] its text so far.
    restricted: bool,
    /// Characters it may still take (`maxLength`), when limited.
    room: Option<usize>,
}

/// The value read so far, with what it needs to grow and to be checked.
#[derive(Debug)]
pub(crate) struct Tree<'e> {
    root: Option<Value>,
    frames: Vec<Frame<'e>>,
    /// Closed frames, kept for their buffers.
    spare: Vec<Frame<'e>>,
    aside: Option<Aside<'e>>,
    string: Option<Open<'e>>,
    /// The open string's candidate `enum` members and text, when restricted
    /// (one string is open at a time: the buffers are reused).
    members: Vec<&'e str>,
    sofar: String,
    /// The context of the number or literal being read.
    pending: Option<Ctx<'e>>,
    /// The pointer of the innermost open container that is part of the answer.
    path: String,
    /// Pointers completed since the last [`Tree::clear_completed`], back to back.
    completed: String,
    ends: Vec<usize>,
    shapes: Option<Shapes<'e>>,
    root_shape: Option<ShapeId>,
    wrapped: bool,
    /// The reshape can only be undone on the whole answer (`read::needs_whole`):
    /// the root is read aside, and no place-by-place check applies.
    whole: bool,
    /// Read whole, and the whole answer is in (undone).
    whole_done: bool,
    /// Tells which branch of a sent union a value took (the emission's validators).
    emission: &'e crate::Emission,
    markers: HashMap<usize, bool>,
    /// A member name came twice in one object (`decode` rejects that): the
    /// object's pointer and the name.
    pub(crate) repeated: Option<(String, String)>,
    /// The first certain violation: the instance pointer and what is wrong.
    pub(crate) violation: Option<(String, String)>,
}

/// Follows the last child `steps` times.
fn descend(mut v: &mut Value, steps: usize) -> Option<&mut Value> {
    for _ in 0..steps {
        v = match v {
            Value::Array(a) => a.last_mut()?,
            Value::Object(m) => m.values_mut().next_back()?,
            _ => return None,
        };
    }
    Some(v)
}

impl<'e> Tree<'e> {
    pub(crate) fn new(emission: &'e crate::Emission) -> Tree<'e> {
        let reshape = emission.reshape.as_ref();
        let whole = reshape.is_some_and(ann::needs_whole);
        // The source schema, in the front end's working form (as compiling read
        // it); it says nothing place by place about an answer sent as pairs or
        // JSON text.
        let mut shapes = emission.work.as_ref().or(emission.source.as_ref()).map(Shapes::new).filter(|_| !whole);
        let root_shape = shapes.as_mut().and_then(Shapes::root);
        Tree {
            root: None,
            frames: Vec::new(),
            spare: Vec::new(),
            aside: None,
            string: None,
            members: Vec::new(),
            sofar: String::new(),
            pending: None,
            path: String::new(),
            completed: String::new(),
            ends: Vec::new(),
            shapes,
            root_shape,
            wrapped: !whole && reshape.is_some_and(ann::is_wrapped),
            whole,
            whole_done: false,
            emission,
            markers: HashMap::new(),
            repeated: None,
            violation: None,
        }
    }

    /// Whether the reshape is undone only on the whole answer.
    pub(crate) fn whole(&self) -> bool {
        self.whole
    }

    /// The answer so far, with the rewrites undone where decidable (read
    /// whole: nothing until the whole answer is in and undone).
    pub(crate) fn value(&self) -> Option<&Value> {
        if self.whole && !self.whole_done {
            return None;
        }
        match &self.root {
            Some(Value::Object(m)) if self.wrapped => m.get("value"),
            other => other.as_ref(),
        }
    }

    /// The whole answer (the caller knows the reading is complete).
    pub(crate) fn into_value(self) -> Option<Value> {
        match self.root {
            Some(Value::Object(mut m)) if self.wrapped && m.contains_key("value") => m.shift_remove("value"),
            other => other,
        }
    }

    /// The pointers of the values completed since the last clear, in order.
    pub(crate) fn completed(&self) -> impl Iterator<Item = &str> {
        self.ends.iter().scan(0, |start, end| {
            let p = self.completed.get(*start..*end).unwrap_or_default();
            *start = *end;
            Some(p)
        })
    }

    pub(crate) fn clear_completed(&mut self) {
        self.completed.clear();
        self.ends.clear();
    }

    /// The pointer of the innermost value of the answer still open.
    pub(crate) fn open(&self) -> Option<String> {
        if let Some(s) = self.string.as_ref().filter(|s| s.ctx.report) {
            let mut p = self.path.clone();
            self.write_seg(&mut p, s.ctx.seg);
            return Some(p);
        }
        self.frames.iter().any(|f| f.ctx.report).then(|| self.path.clone())
    }

    fn write_seg(&self, out: &mut String, seg: Seg) {
        match seg {
            Seg::Root => {}
            Seg::Key => {
                out.push('/');
                let token = self.frames.last().map_or("", |f| if f.token.is_empty() { &f.key } else { &f.token });
                out.push_str(token);
            }
            Seg::Index(i) => index_into(out, i),
        }
    }

    fn pointer(&self, seg: Seg) -> String {
        let mut p = self.path.clone();
        self.write_seg(&mut p, seg);
        p
    }

    fn report(&mut self, seg: Seg) {
        let mut out = std::mem::take(&mut self.completed);
        out.push_str(&self.path);
        self.write_seg(&mut out, seg);
        self.completed = out;
        self.ends.push(self.completed.len());
    }

    #[cold]
    fn no_member(&mut self, seg: Seg) {
        let message = format!("no `enum` or `const` value starts with {}", Value::String(self.sofar.clone()));
        self.violate(self.pointer(seg), message);
    }

    #[cold]
    fn too_long(&mut self, seg: Seg) {
        let message = "the string is already longer than the schema allows (`maxLength`)".to_owned();
        self.violate(self.pointer(seg), message);
    }

    #[cold]
    fn too_many(&mut self, seg: Seg, max: usize) {
        let message = format!("an array here has at most {max} items (`maxItems`)");
        self.violate(self.pointer(seg), message);
    }

    /// The object closing now lacks a member every alternative requires.
    #[cold]
    fn missing_member(&mut self, s: ShapeId) {
        let shapes = self.shapes.take();
        let object = self.top().and_then(|v| v.as_object());
        let name = shapes.as_ref().zip(object).and_then(|(all, m)| all.missing(s, |n| m.contains_key(n)));
        self.shapes = shapes;
        if let Some(name) = name {
            let message = format!("member {} is missing, and the schema requires it", Value::String(name.to_owned()));
            self.violate(self.path.clone(), message);
        }
    }

    #[cold]
    fn violate(&mut self, pointer: String, message: String) {
        if self.violation.is_none() {
            self.violation = Some((pointer, message));
        }
    }

    fn has_markers(&mut self, a: &Value) -> bool {
        *self.markers.entry(std::ptr::from_ref(a) as usize).or_insert_with(|| ann::has_markers(a))
    }

    /// What is known about a value of `kind` starting in the current place.
    fn child(&mut self, kind: Kind) -> Ctx<'e> {
        let shapes = &mut self.shapes;
        // An element past `maxItems`: its index and the limit.
        let mut over = None;
        let mut ctx = match self.frames.last_mut() {
            None => {
                // Read whole: only a container, set aside, is reported (once undone).
                let container = matches!(kind, Kind::Object | Kind::Array);
                let report = !(self.wrapped && kind == Kind::Object) && (!self.whole || container);
                Ctx { report, shape: self.root_shape.filter(|_| report), ann: self.emission.reshape.as_ref(), ..INERT }
            }
            Some(f) if f.envelope => {
                let value = f.key == "value";
                Ctx {
                    report: value,
                    shape: self.root_shape.filter(|_| value),
                    ann: f.ctx.ann.and_then(|a| ann::member(a, "value")).filter(|_| value),
                    ..INERT
                }
            }
            Some(f) if f.object => Ctx {
                seg: Seg::Key,
                report: f.ctx.report,
                ann: f.ctx.ann.and_then(|a| ann::member(a, &f.key)),
                shape: f.member,
                drops_null: f.ctx.ann.is_some_and(|a| ann::drops_null(a, &f.key)),
            },
            Some(f) => {
                let i = f.next;
                f.next += 1;
                let limit =
                    f.ctx.shape.filter(|_| f.ctx.report).zip(shapes.as_ref()).and_then(|(s, all)| all.max_items(s));
                over = limit.filter(|max| i >= *max).map(|max| (i, max));
                Ctx {
                    seg: Seg::Index(i),
                    report: f.ctx.report,
                    ann: f.ctx.ann.and_then(|a| ann::element(a, i)),
                    shape: f.ctx.shape.zip(shapes.as_mut()).and_then(|(s, all)| all.element(s, i)),
                    drops_null: false,
                }
            }
        };
        if let Some((i, max)) = over {
            self.too_many(Seg::Index(i), max);
        }
        if let Some(inner) = ctx.ann.and_then(ann::or_null) {
            ctx.ann = Some(inner).filter(|_| kind != Kind::Null);
        }
        ctx
    }

    /// Puts a value into the current container (or makes it the root).
    fn insert(&mut self, v: Value) {
        let Some(f) = self.frames.last_mut() else {
            self.root = Some(v);
            return;
        };
        // The name stays in the frame (its buffer is reused for the next one).
        let key = f.key.clone();
        let dropped = !f.dropped.is_empty() && f.dropped.contains(&key);
        // `Map::insert`, the call serde_json's own parser makes for each member
        // (one hash; a repeated name, rare, is then moved last below).
        let replaced = match self.top() {
            Some(Value::Array(items)) => {
                items.push(v);
                return;
            }
            Some(Value::Object(m)) => m.insert(key, v).is_some(),
            _ => return,
        };
        if !(replaced || dropped) {
            return;
        }
        let name = self.frames.last().map(|f| f.key.clone()).unwrap_or_default();
        if replaced
            && let Some(Value::Object(m)) = self.top()
            && let Some((k, v)) = m.shift_remove_entry(&name)
        {
            // Kept last, so the open value stays the last child.
            m.insert(k, v);
        }
        if self.repeated.is_none() {
            self.repeated = Some((self.path.clone(), name));
        }
    }

    /// The innermost open container (the root's, or the aside value's, last
    /// child followed down to the top frame).
    fn top(&mut self) -> Option<&mut Value> {
        let depth = self.frames.len().checked_sub(1)?;
        let (base, steps) = match &mut self.aside {
            Some(a) if depth >= a.depth => (Some(&mut a.value), depth - a.depth),
            _ => (self.root.as_mut(), depth),
        };
        base.and_then(|b| descend(b, steps))
    }

    /// The open string value.
    fn open_string(&mut self) -> Option<&mut String> {
        let depth = self.frames.len();
        let (base, steps) = match &mut self.aside {
            Some(a) if depth > a.depth => (Some(&mut a.value), depth - a.depth),
            _ => (self.root.as_mut(), depth),
        };
        match base.and_then(|b| descend(b, steps)) {
            Some(Value::String(s)) => Some(s),
            _ => None,
        }
    }

    /// Reports `v` and everything in it as complete, children first.
    fn report_all(&mut self, v: &Value, at: &mut String) {
        let len = at.len();
        match v {
            Value::Object(m) => {
                for (k, child) in m {
                    at.push('/');
                    escape_into(at, k);
                    self.report_all(child, at);
                    at.truncate(len);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    index_into(at, i);
                    self.report_all(child, at);
                    at.truncate(len);
                }
            }
            _ => {}
        }
        self.completed.push_str(at);
        self.ends.push(self.completed.len());
    }

    fn check_kind(&mut self, ctx: Ctx<'e>, kind: Kind) {
        let Some((s, shapes)) = ctx.shape.zip(self.shapes.as_ref()) else { return };
        if !shapes.allows(s, kind) {
            let allowed = shapes.describe(s);
            self.violate(
                self.pointer(ctx.seg),
                format!("{} cannot be valid here: the schema allows {allowed}", kind.name()),
            );
        }
    }
}

//! What the caller's schema certainly forbids at an instance location, for
//! the stream decoder's early errors.
//!
//! A location's *shape* over-approximates the schemas that apply there: a
//! union of alternatives (one per way through `anyOf`/`oneOf`), each a
//! conjunction of schema objects (through `$ref` and `allOf`). Everything not
//! understood is dropped from a conjunction, which only widens; `if`, `not`,
//! `dependentSchemas`, `unevaluated*`, `contains` and pattern-matched members
//! say nothing here. These facts are read from it, each sound: the kinds of
//! value allowed (`type`, `enum`, `const`), the strings and the other scalars
//! allowed (`enum`, `const`), whether numbers must be whole (`integer`), the
//! bounds on numbers, string lengths and item counts (`minimum`, `maximum`
//! and their exclusive forms, `minLength`, `maxLength`, `minItems`,
//! `maxItems`), the members required, and the member names allowed
//! (`additionalProperties: false` without `patternProperties`). A location that cannot be read (a dynamic or
//! unresolvable reference, too many alternatives) has no shape: nothing is
//! checked there or below.

use super::json::Kind;
use crate::analysis::Doc;
use crate::types::TypeSet;
use alt::{alt_kinds, summarise};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

mod alt;

/// An index into [`Shapes`].
pub(crate) type ShapeId = u32;

/// What an object's shape says about one member name.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Member {
    /// The name may be there (a closed object declares it, or the object is open).
    pub(crate) allowed: bool,
    /// Every alternative requires the name (`required`).
    pub(crate) needed: bool,
    pub(crate) shape: Option<ShapeId>,
}

/// Most alternatives at one location, and most schema objects gathered for one.
const MAX_ALTS: usize = 32;
const MAX_GATHERED: usize = 4096;
/// Most shapes kept for one stream.
const MAX_SHAPES: usize = 4096;
/// Member shapes kept in a list before a hash map.
const FEW_MEMBERS: usize = 16;

type Conj<'e> = Vec<&'e Map<String, Value>>;
/// Schemas that all apply (before `$ref`, `allOf` and unions are followed).
type Starts<'e> = Vec<&'e Value>;

#[derive(Debug)]
struct Shape<'e> {
    alts: Vec<Conj<'e>>,
    /// Allowed kinds, a bit per [`Kind`].
    kinds: u8,
    /// The only strings allowed, when `enum`/`const` restrict them everywhere.
    strings: Option<Vec<&'e str>>,
    /// The only numbers, booleans and nulls allowed, when `enum`/`const`
    /// restrict them everywhere.
    scalars: Option<Vec<&'e Value>>,
    /// Numbers must be whole everywhere they are allowed (`integer`).
    integers: bool,
    /// Any of `scalars`, `integers` and `bounds` restricts something.
    scalar_checks: bool,
    /// Each alternative allowing numbers: the lowest and highest number it allows.
    bounds: Vec<(f64, f64)>,
    /// The most characters a string may have, and items an array (`None`: no limit).
    max_len: Option<usize>,
    max_items: Option<usize>,
    /// The fewest characters a string, and items an array, must have (0: no minimum).
    min_len: usize,
    min_items: usize,
    /// The member names every alternative allowing objects requires, sorted.
    needed: Vec<&'e str>,
    /// The only member names allowed, sorted, when every alternative closes its objects.
    keys: Option<Vec<&'e str>>,
    /// The longest tuple part (`prefixItems`).
    tuple_len: usize,
    /// Members met so far: the first few scanned (that beats hashing the
    /// name), the rest (maps) hashed.
    members: Vec<(String, Member)>,
    more_members: HashMap<String, Member>,
    /// The shape of every member name no alternative declares (a map's
    /// values), once met: not kept name by name.
    undeclared: Option<Option<ShapeId>>,
    /// Elements inside the tuple part, and past it.
    elements: HashMap<usize, Option<ShapeId>>,
    rest: Option<Option<ShapeId>>,
}

/// The shapes met so far in one stream, built as the answer reaches them.
pub(crate) struct Shapes<'e> {
    doc: Doc<'e>,
    shapes: Vec<Shape<'e>>,
    interned: HashMap<Vec<Vec<usize>>, ShapeId>,
}

impl std::fmt::Debug for Shapes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shapes").field("shapes", &self.shapes.len()).finish()
    }
}

fn bit(kind: Kind) -> u8 {
    1 << (kind as u8)
}

const ALL: u8 = 0b11_1111;
const KINDS: [Kind; 6] = [Kind::Null, Kind::Bool, Kind::Number, Kind::String, Kind::Array, Kind::Object];

/// The stream reader's kinds a set of JSON Schema types allows (`integer`
/// reads as a number: the reader does not tell them apart).
fn bits(t: TypeSet) -> u8 {
    let mut k = 0;
    for (on, kind) in [
        (t.null, Kind::Null),
        (t.boolean, Kind::Bool),
        (t.integer || t.number, Kind::Number),
        (t.string, Kind::String),
        (t.array, Kind::Array),
        (t.object, Kind::Object),
    ] {
        if on {
            k |= bit(kind);
        }
    }
    k
}

/// The kinds a `type` keyword allows (an unreadable one says nothing).
fn kinds_of_type(t: &Value) -> u8 {
    TypeSet::from_keyword(t).map_or(ALL, bits)
}

fn kind_of(v: &Value) -> u8 {
    bits(TypeSet::of_value(v))
}

impl<'e> Shapes<'e> {
    /// Shapes of the front end's working form `root` (one reading for every
    /// draft: references are local pointers, tuples are `prefixItems`).
    pub(crate) fn new(root: &'e Value) -> Shapes<'e> {
        Shapes { doc: Doc { root }, shapes: Vec::new(), interned: HashMap::new() }
    }

    /// The shape of the answer's root.
    pub(crate) fn root(&mut self) -> Option<ShapeId> {
        let root = self.doc.root;
        self.shape_of(vec![vec![root]])
    }

    pub(crate) fn allows(&self, s: ShapeId, kind: Kind) -> bool {
        self.shapes[s as usize].kinds & bit(kind) != 0
    }

    /// The allowed kinds, in words (`a string or null`).
    pub(crate) fn describe(&self, s: ShapeId) -> String {
        let shape = &self.shapes[s as usize];
        let name = |k: &Kind| if *k == Kind::Number && shape.integers { "an integer" } else { k.name() };
        let names: Vec<&str> = KINDS.iter().filter(|k| shape.kinds & bit(**k) != 0).map(name).collect();
        match names.as_slice() {
            [] => "no value".to_owned(),
            [one] => (*one).to_owned(),
            [init @ .., last] => format!("{} or {last}", init.join(", ")),
        }
    }

    /// Why the number, boolean or null `v`, complete, cannot be valid here
    /// (`None`: it may be).
    #[inline]
    pub(crate) fn refuses(&self, s: ShapeId, v: &Value) -> Option<String> {
        let shape = &self.shapes[s as usize];
        if !shape.scalar_checks {
            return None;
        }
        self.refused(shape, v)
    }

    /// [`Shapes::refuses`] where the shape restricts scalars (kept out of line:
    /// most places restrict nothing).
    #[inline(never)]
    fn refused(&self, shape: &Shape<'_>, v: &Value) -> Option<String> {
        if let Some(allowed) = &shape.scalars
            && !allowed.iter().any(|a| crate::literal::equal(a, v))
        {
            return Some(format!("{v} is not one of the `enum` or `const` values"));
        }
        // A fraction is no integer under any draft (`1.0` is left alone: drafts differ).
        let fraction = v.as_f64().is_some_and(|f| f.fract() != 0.0) && !(v.is_u64() || v.is_i64());
        if shape.integers && fraction {
            return Some(format!("{v} cannot be valid here: numbers must be integers"));
        }
        // Compared as floats, only strictly: rounding keeps order, so a number
        // within its bounds never looks out of them (one on an exclusive bound waits).
        let f = v.as_f64()?;
        let out = |&(lo, hi): &(f64, f64)| f < lo || f > hi;
        (!shape.bounds.is_empty() && shape.bounds.iter().all(out)).then(|| {
            format!("{v} cannot be valid here: it is outside the bounds the schema sets (`minimum`, `maximum`)")
        })
    }

    /// The fewest characters a string here must have.
    pub(crate) fn min_len(&self, s: ShapeId) -> usize {
        self.shapes[s as usize].min_len
    }

    /// The fewest items an array here must have, and how many member names
    /// an object here certainly needs ([`Member::needed`]).
    pub(crate) fn least(&self, s: ShapeId) -> (usize, usize) {
        let shape = &self.shapes[s as usize];
        (shape.min_items, shape.needed.len())
    }

    /// The first member name an object here needs that `has` says is not there.
    pub(crate) fn missing(&self, s: ShapeId, has: impl Fn(&str) -> bool) -> Option<&'e str> {
        self.shapes[s as usize].needed.iter().find(|n| !has(n)).copied()
    }

    /// The most items an array here may have.
    pub(crate) fn max_items(&self, s: ShapeId) -> Option<usize> {
        self.shapes[s as usize].max_items
    }

    /// The only strings allowed here, if restricted, and the most characters
    /// a string here may have.
    pub(crate) fn strings(&self, s: ShapeId) -> (Option<&[&'e str]>, Option<usize>) {
        let shape = &self.shapes[s as usize];
        (shape.strings.as_deref(), shape.max_len)
    }

    /// How many member names an object here may have, when they are known
    /// (room to make for it at once).
    pub(crate) fn key_count(&self, s: ShapeId) -> usize {
        self.shapes[s as usize].keys.as_ref().map_or(0, Vec::len)
    }

    /// Member `key` of an object here: whether it may be there, and its
    /// shape (one lookup for both, as each member name arrives).
    pub(crate) fn member(&mut self, s: ShapeId, key: &str) -> Member {
        let shape = &self.shapes[s as usize];
        let known = match shape.members.iter().find(|(k, _)| k == key) {
            Some((_, known)) => Some(*known),
            None => shape.more_members.get(key).copied(),
        };
        if let Some(known) = known {
            return known;
        }
        let allowed = shape.keys.as_ref().is_none_or(|k| k.binary_search(&key).is_ok());
        let needed = shape.needed.binary_search(&key).is_ok();
        let objects = || shape.alts.iter().filter(|alt| alt_kinds(alt) & bit(Kind::Object) != 0);
        // A name no alternative declares (nor may match by pattern) gets the
        // same shape as every other such name: found once, for all of them.
        let declared = |m: &Map<String, Value>| {
            m.contains_key("patternProperties") || m.get("properties").and_then(|p| p.get(key)).is_some()
        };
        let undeclared = !objects().any(|alt| alt.iter().any(|m| declared(m)));
        if undeclared && let Some(known) = shape.undeclared {
            return Member { allowed, needed, shape: known };
        }
        let starts: Vec<Starts<'e>> =
            objects().map(|alt| alt.iter().filter_map(|m| member_schema(m, key)).collect()).collect();
        let found = Member { allowed, needed, shape: self.shape_of(starts) };
        if undeclared {
            self.shapes[s as usize].undeclared = Some(found.shape);
            return found;
        }
        let shape = &mut self.shapes[s as usize];
        if shape.members.len() < FEW_MEMBERS {
            shape.members.push((key.to_owned(), found));
        } else {
            shape.more_members.insert(key.to_owned(), found);
        }
        found
    }

    /// The shape of element `i` of an array here.
    pub(crate) fn element(&mut self, s: ShapeId, i: usize) -> Option<ShapeId> {
        // Elements past every tuple part share one shape.
        let shape = &self.shapes[s as usize];
        let slot = i.min(shape.tuple_len);
        let known = if slot == shape.tuple_len { shape.rest } else { shape.elements.get(&slot).copied() };
        if let Some(known) = known {
            return known;
        }
        let starts: Vec<Starts<'e>> = self.shapes[s as usize]
            .alts
            .iter()
            .filter(|alt| alt_kinds(alt) & bit(Kind::Array) != 0)
            .map(|alt| alt.iter().filter_map(|m| element_schema(m, slot)).collect())
            .collect();
        let found = self.shape_of(starts);
        let shape = &mut self.shapes[s as usize];
        if slot == shape.tuple_len {
            shape.rest = Some(found);
        } else {
            shape.elements.insert(slot, found);
        }
        found
    }

    /// The shape where each of `starts` (conjunctions) may apply.
    fn shape_of(&mut self, starts: Vec<Starts<'e>>) -> Option<ShapeId> {
        let mut alts: Vec<Conj<'e>> = Vec::new();
        for conj in &starts {
            alts.extend(self.expand(conj)?);
            if alts.len() > MAX_ALTS {
                return None;
            }
        }
        let mut key: Vec<Vec<usize>> = alts
            .iter()
            .map(|a| {
                let mut ids: Vec<usize> = a.iter().map(|m| std::ptr::from_ref(*m) as usize).collect();
                ids.sort_unstable();
                ids.dedup();
                ids
            })
            .collect();
        key.sort();
        key.dedup();
        if let Some(id) = self.interned.get(&key) {
            return Some(*id);
        }
        if self.shapes.len() >= MAX_SHAPES {
            return None;
        }
        let shape = summarise(alts);
        let id = ShapeId::try_from(self.shapes.len()).ok()?;
        self.shapes.push(shape);
        self.interned.insert(key, id);
        Some(id)
    }

    /// The alternatives of one conjunction, through `$ref`, `allOf`, `anyOf`
    /// and `oneOf`; `None` when it cannot be read.
    fn expand(&self, conj: &[&'e Value]) -> Option<Vec<Conj<'e>>> {
        // (objects so far, schemas still to read, objects already read)
        let mut work: Vec<(Conj<'e>, Vec<&'e Value>, HashSet<usize>)> =
            vec![(Vec::new(), conj.iter().rev().copied().collect(), HashSet::new())];
        let mut out = Vec::new();
        let mut gathered = 0;
        while let Some((mut done, mut todo, mut seen)) = work.pop() {
            let mut dead = false;
            while let Some(schema) = todo.pop() {
                gathered += 1;
                if gathered > MAX_GATHERED {
                    return None;
                }
                let m = match schema {
                    Value::Bool(false) => {
                        dead = true;
                        break;
                    }
                    Value::Object(m) => m,
                    _ => continue,
                };
                if !seen.insert(std::ptr::from_ref(m) as usize) {
                    continue;
                }
                if m.contains_key(crate::vocab::OPAQUE) || m.contains_key("$dynamicRef") {
                    return None;
                }
                if let Some(r) = m.get("$ref").and_then(Value::as_str) {
                    let (target, _) = crate::closure::resolve(&self.doc, r)?;
                    todo.push(target);
                }
                done.push(m);
                if let Some(Value::Array(parts)) = m.get("allOf") {
                    todo.extend(parts.iter().rev());
                }
                for union in ["anyOf", "oneOf"] {
                    if let Some(Value::Array(branches)) = m.get(union) {
                        if branches.len() > MAX_ALTS {
                            return None;
                        }
                        // Each branch continues as its own alternative.
                        for b in branches.iter().skip(1) {
                            let mut t = todo.clone();
                            t.push(b);
                            work.push((done.clone(), t, seen.clone()));
                        }
                        match branches.first() {
                            Some(b) => todo.push(b),
                            None => dead = true,
                        }
                        if work.len() > MAX_ALTS {
                            return None;
                        }
                    }
                }
                if dead {
                    break;
                }
            }
            if !dead {
                out.push(done);
            }
        }
        Some(out)
    }
}

/// The schema that applies to member `key` of objects under `m`, when known
/// (a member a `patternProperties` pattern might match is left unknown).
fn member_schema<'e>(m: &'e Map<String, Value>, key: &str) -> Option<&'e Value> {
    if let Some(s) = m.get("properties").and_then(|p| p.get(key)) {
        return Some(s);
    }
    if m.contains_key("patternProperties") {
        return None;
    }
    m.get("additionalProperties")
}

/// The tuple part of an array schema.
fn tuple(m: &Map<String, Value>) -> Option<&[Value]> {
    m.get("prefixItems").and_then(Value::as_array).map(Vec::as_slice)
}

/// The schema that applies to element `i` of arrays under `m`.
fn element_schema(m: &Map<String, Value>, i: usize) -> Option<&Value> {
    match tuple(m) {
        Some(parts) if i < parts.len() => parts.get(i),
        _ => m.get("items"),
    }
}

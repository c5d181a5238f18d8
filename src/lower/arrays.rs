//! Arrays: tuple positions (`prefixItems`), the rest (`items`), and the element
//! count bounds, merged over every array node that applies at a location.
//!
//! [`Lowerer::arrays`] is on the path of every nested element, so its own
//! frame stays small: what it reads before lowering the elements
//! ([`array_plan`]) and what it writes after ([`Lowerer::array_node`])
//! are functions of their own.

use super::build::any_of;
use super::facts::Facts;
use super::{Fail, Lowerer};
use crate::closure::{self, Src};
use crate::note::Action;
use serde_json::{Map, Value};

const PREFIX: &str = "prefixItems";
const EXACT_TUPLE: &str =
    "a tuple of exactly its length: sent as `prefixItems` alone, which the converter reads as exactly these elements";
const NO_ELEMENT: &str = "no element is valid here: the array ends before it (`maxItems`)";

/// The array nodes of a location, read before their elements are lowered.
struct Plan<'d> {
    /// Per node: its prefix list and its rest schema (`None`: any element).
    prefixes: Vec<Vec<Src<'d>>>,
    rests: Vec<Option<Src<'d>>>,
    /// The longest prefix.
    width: usize,
    /// The element count bound that ends the array (a rest that is `false`, a
    /// tuple closed by `maxItems`, a position that accepts nothing).
    max_from_tuple: Option<(u64, String)>,
}

/// The elements as lowered.
struct Elements {
    positions: Vec<Value>,
    rest: Option<Value>,
    /// No element may follow the positions.
    rest_forbidden: bool,
    /// Any element may follow them.
    rest_any: bool,
}

impl<'d> Lowerer<'_, 'd> {
    /// Writes the location's array keywords into `out`, lowering each position
    /// and the rest as a location of its own.
    pub(super) fn arrays(
        &mut self,
        f: &Facts<'d>,
        pi: &[Src<'d>],
        at: &str,
        out: &mut Map<String, Value>,
    ) -> Result<(), Fail> {
        let mut plan = array_plan(f);
        let gathered = closure::gather_with(self.doc, pi, &self.choices);
        let limit = plan.max_from_tuple.as_ref().map_or(plan.width, |(m, _)| plan.width.min(*m as usize));
        let mut positions: Vec<Value> = Vec::with_capacity(limit);
        for i in 0..limit {
            let (srcs, here) = position(&plan, i, at);
            // No element can stand here: the array ends before it.
            let mark = self.mark();
            let v = self.location(&srcs, &gathered.for_index(Some(i)), &here);
            if let Some(v) = self.empty_after(mark, v)? {
                positions.push(v);
            } else {
                self.note(&here, PREFIX, Action::Rewritten, NO_ELEMENT);
                plan.max_from_tuple = Some((i as u64, here));
                break;
            }
        }
        let rest_srcs: Vec<Src<'d>> = plan.rests.iter().flatten().cloned().collect();
        let mut rest_forbidden = plan.max_from_tuple.is_some();
        let rest_any = !rest_forbidden && rest_srcs.is_empty();
        let rest = if rest_forbidden {
            None
        } else if rest_any {
            // Elements of any type the dialect cannot say: under reshape, each
            // is sent as its JSON text (as `items: {}` is), not the whole array.
            let text =
                positions.is_empty() && self.encodings && !self.rules.any_value && !self.rules.arrays_without_items;
            text.then(|| self.elements_as_json_text(at))
        } else {
            let here = rest_srcs[0].1.clone();
            let mark = self.mark();
            let v = self.location(&rest_srcs, &gathered.for_index(None), &here);
            let v = self.empty_after(mark, v)?;
            if v.is_none() {
                self.note(&here, "items", Action::Rewritten, NO_ELEMENT);
                plan.max_from_tuple = Some((positions.len() as u64, here));
                rest_forbidden = true;
            }
            v
        };
        let rest_any = rest_any && rest.is_none();
        self.array_node(f, plan.max_from_tuple, Elements { positions, rest, rest_forbidden, rest_any }, at, out)
    }

    /// The array keywords, once the elements are lowered.
    #[inline(never)]
    fn array_node(
        &mut self,
        f: &Facts<'d>,
        max_from_tuple: Option<(u64, String)>,
        elements: Elements,
        at: &str,
        out: &mut Map<String, Value>,
    ) -> Result<(), Fail> {
        let Elements { positions, rest, rest_forbidden, rest_any } = elements;
        if let (Some((min, p)), Some((max, _))) = (&f.min_items, &max_from_tuple)
            && min > max
        {
            return Err(Fail::empty(p, "minItems", "more elements are required than can be valid: accepts no value"));
        }
        let mut max_items = f.max_items.clone();
        if let Some((n, p)) = &max_from_tuple
            && max_items.as_ref().is_none_or(|(m, _)| n < m)
        {
            max_items = Some((*n, p.clone()));
        }
        let n = positions.len() as u64;
        let fixed = |b: &Option<(u64, String)>| b.as_ref().is_some_and(|(m, _)| *m == n);
        if !positions.is_empty() && !self.rules.allows(PREFIX) && self.rules.exact_tuples {
            // Exactly `n` elements (more is ruled out above, fewer by `minItems`):
            // the converter's fixed-length tuple, spelled alone.
            if rest_forbidden && fixed(&max_items) && fixed(&f.min_items) {
                out.insert(PREFIX.to_owned(), Value::Array(positions));
                self.note(at, PREFIX, Action::Rewritten, EXACT_TUPLE);
                return Ok(());
            }
        }
        if !positions.is_empty() && self.rules.allows(PREFIX) {
            out.insert(PREFIX.to_owned(), Value::Array(positions));
            match (rest, rest_forbidden) {
                (Some(v), _) => {
                    out.insert("items".to_owned(), v);
                }
                (None, true) => {
                    out.insert("items".to_owned(), Value::Bool(false));
                }
                (None, false) => {}
            }
        } else {
            self.items_union(positions, rest, rest_forbidden, rest_any, at, out)?;
        }
        self.counts([("minItems", &f.min_items), ("maxItems", &max_items)], out);
        Ok(())
    }

    /// A dialect without `prefixItems`: the positions and the rest as one
    /// union for every element.
    fn items_union(
        &mut self,
        positions: Vec<Value>,
        rest: Option<Value>,
        rest_forbidden: bool,
        rest_any: bool,
        at: &str,
        out: &mut Map<String, Value>,
    ) -> Result<(), Fail> {
        let tuple = !positions.is_empty();
        let mut branches = positions;
        match rest {
            Some(v) => branches.push(v),
            None if rest_any => {
                if self.rules.arrays_without_items {
                    branches.clear();
                } else if self.rules.any_value {
                    branches = vec![Value::Object(Map::new())];
                } else {
                    return Err(Fail::new(
                        at,
                        "items",
                        "array elements of any type cannot be expressed in this dialect",
                    ));
                }
            }
            None => {}
        }
        let mut unique: Vec<Value> = Vec::new();
        for b in branches {
            if !unique.contains(&b) {
                unique.push(b);
            }
        }
        // Positions that all say the same as the rest lose nothing in one `items`.
        if tuple && (unique.len() > 1 || rest_any) {
            self.widen(at, PREFIX, Action::Rewritten, "tuple positions sent as one union for every element (widening)");
        } else if tuple {
            self.note(
                at,
                PREFIX,
                Action::Rewritten,
                "every position and the rest take the same schema: sent as `items`",
            );
        }
        match unique.len() {
            0 if rest_forbidden => {
                // Only the empty array: `maxItems: 0` below says so; elements never
                // occur, so a dialect that wants `items` gets any type it can say (and
                // without `maxItems`, strings widen an array that must be empty).
                if !self.rules.arrays_without_items {
                    out.insert("items".to_owned(), serde_json::json!({"type": "string"}));
                    if self.rules.allows("maxItems") {
                        self.note(
                            at,
                            "items",
                            Action::Rewritten,
                            "only the empty array is valid here: `items` is sent as strings, which `maxItems: 0` never lets occur",
                        );
                    } else {
                        self.widen(
                            at,
                            "items",
                            Action::Rewritten,
                            "only the empty array is valid here, which the dialect cannot say: `items` is sent as strings (widening)",
                        );
                    }
                }
            }
            0 => {}
            1 => {
                out.insert("items".to_owned(), unique.pop().unwrap_or(Value::Null));
            }
            _ => {
                out.insert("items".to_owned(), any_of(unique));
            }
        }
        Ok(())
    }
}

/// The prefixes and rests of the location's array nodes, and the count bound
/// they set.
#[inline(never)]
fn array_plan<'d>(f: &Facts<'d>) -> Plan<'d> {
    let mut prefixes: Vec<Vec<Src<'d>>> = Vec::new();
    let mut rests: Vec<Option<Src<'d>>> = Vec::new();
    for (map, p) in &f.array_nodes {
        let prefix: Vec<Src<'d>> = match map.get(PREFIX) {
            Some(Value::Array(list)) => list
                .iter()
                .enumerate()
                .map(|(i, s)| (s, crate::pointer::push_index(&crate::pointer::push(p, PREFIX), i)))
                .collect(),
            _ => Vec::new(),
        };
        let rest = map.get("items").map(|v| (v, crate::pointer::push(p, "items")));
        prefixes.push(prefix);
        rests.push(rest);
    }
    let width = prefixes.iter().map(Vec::len).max().unwrap_or(0);
    // Element count bound from nodes whose rest is `false`.
    let mut max_from_tuple: Option<(u64, String)> = None;
    for (i, r) in rests.iter().enumerate() {
        if let Some((Value::Bool(false), p)) = r {
            let n = prefixes[i].len() as u64;
            if max_from_tuple.as_ref().is_none_or(|(m, _)| n < *m) {
                max_from_tuple = Some((n, p.clone()));
            }
        }
    }
    // A tuple closed by `maxItems` (Pydantic's fixed-length tuples) takes no
    // element beyond its positions, whatever `items` says.
    if let Some((m, p)) = &f.max_items
        && usize::try_from(*m).is_ok_and(|m| m <= width)
        && max_from_tuple.as_ref().is_none_or(|(t, _)| m < t)
    {
        max_from_tuple = Some((*m, p.clone()));
    }
    Plan { prefixes, rests, width, max_from_tuple }
}

/// The schemas that apply at position `i`, and its pointer.
#[inline(never)]
fn position<'d>(plan: &Plan<'d>, i: usize, at: &str) -> (Vec<Src<'d>>, String) {
    let mut srcs: Vec<Src<'d>> = Vec::new();
    for (j, prefix) in plan.prefixes.iter().enumerate() {
        match prefix.get(i) {
            Some(s) => srcs.push(s.clone()),
            None => srcs.extend(plan.rests[j].clone()),
        }
    }
    let here = srcs.first().map_or_else(|| at.to_owned(), |s| s.1.clone());
    (srcs, here)
}

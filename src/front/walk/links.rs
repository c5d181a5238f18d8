//! References in the walk: each `$ref`, `$recursiveRef` and `$dynamicRef`
//! resolved through the validator's registry and placed as a link (a `$ref`
//! to the working form's definition, or an inlined node).

use super::{Link, Pending, Src, Walker, address};
use crate::error::Problem;
use crate::pointer;
use crate::vocab::{self, Draft};
use referencing::Resolver;
use serde_json::{Map, Value};

impl<'r> Walker<'r> {
    /// Places the node's references: the first as its `$ref`, others as `allOf` members.
    pub(super) fn attach(&mut self, links: Vec<Link<'r>>, out: &mut Map<String, Value>, at: &str) {
        for link in links {
            let holder = if out.contains_key("$ref") || out.contains_key(vocab::OPAQUE) {
                let list = out.entry("allOf").or_insert_with(|| Value::Array(Vec::new()));
                let Value::Array(l) = list else { continue };
                l.push(Value::Object(Map::new()));
                pointer::push_index(&pointer::push(at, "allOf"), l.len() - 1)
            } else {
                at.to_owned()
            };
            let slot: &mut Map<String, Value> = if holder == at {
                out
            } else {
                match out.get_mut("allOf").and_then(Value::as_array_mut).and_then(|l| l.last_mut()) {
                    Some(Value::Object(m)) => m,
                    _ => continue,
                }
            };
            match link {
                Link::To(target, resolver, draft) => {
                    slot.insert("$ref".to_owned(), Value::String(String::new()));
                    self.pending.push(Pending { holder, target, resolver, draft });
                }
                Link::Opaque(why) => {
                    slot.insert(vocab::OPAQUE.to_owned(), Value::String(why));
                }
                Link::Broken => {}
            }
        }
    }

    /// Resolves a `$ref` exactly as the validator does.
    pub(super) fn link(
        &mut self,
        value: &Value,
        resolver: &Resolver<'r>,
        draft: Draft,
        src: &Src,
        kw: &str,
    ) -> Link<'r> {
        let Some(r) = value.as_str() else { return Link::Broken };
        let document = r.split('#').next().unwrap_or_default();
        if !document.is_empty()
            && let Ok(abs) = resolver.resolve_uri(&resolver.base_uri().borrow(), document)
            && self.unfetched.contains(abs.as_str())
        {
            self.problems.push(Problem {
                pointer: src.push(kw).display(),
                message: format!(
                    "reference {r:?} needs the document {:?}, which was not supplied: nothing is fetched (supply it with `Options::with_resource` or `--resource`)",
                    abs.as_str()
                ),
            });
            return Link::Broken;
        }
        match resolver.lookup(r) {
            Ok(resolved) => {
                let (contents, resolver, d) = resolved.into_inner();
                Link::To(contents, resolver, from_referencing(d, draft))
            }
            Err(e) => {
                self.problems.push(Problem {
                    pointer: src.push(kw).display(),
                    message: format!("reference {r:?} does not resolve: {e}"),
                });
                Link::Broken
            }
        }
    }

    /// `$recursiveRef` (2019-09): `#`, unless its target recurses dynamically.
    pub(super) fn recursive(&mut self, resolver: &Resolver<'r>, draft: Draft, src: &Src) -> Link<'r> {
        let initial = self.link(&Value::String("#".to_owned()), resolver, draft, src, "$recursiveRef");
        let Link::To(target, _, _) = &initial else { return initial };
        if target.get("$recursiveAnchor") != Some(&Value::Bool(true)) {
            return initial;
        }
        if self.source.get("$recursiveAnchor") == Some(&Value::Bool(true)) {
            // The outermost resource of every dynamic scope is the root.
            return Link::To(self.source, resolver.clone(), draft);
        }
        Link::Opaque("`$recursiveRef` whose target depends on the path taken".to_owned())
    }

    /// `$dynamicRef` (2020-12): a `$ref`, unless it lands on a `$dynamicAnchor`
    /// whose outermost definition depends on the path taken.
    pub(super) fn dynamic(&mut self, value: &Value, resolver: &Resolver<'r>, draft: Draft, src: &Src) -> Link<'r> {
        let Some(r) = value.as_str() else { return Link::Broken };
        let name = r.rsplit_once('#').map_or("", |(_, f)| f);
        let initial = self.link(value, resolver, draft, src, "$dynamicRef");
        let Link::To(target, _, _) = &initial else { return initial };
        if name.is_empty()
            || name.starts_with('/')
            || target.get("$dynamicAnchor").and_then(Value::as_str) != Some(name)
        {
            return initial;
        }
        match find_dynamic_anchor(self.source, name) {
            Some(outer) if self.placed.contains_key(&address(outer)) => Link::To(outer, resolver.clone(), draft),
            _ => Link::Opaque(format!("`$dynamicRef` {r:?} whose target depends on the path taken")),
        }
    }

    /// Where a bundled target sits in the documents.
    pub(super) fn locate(&self, target: &Value) -> Src {
        for (doc, root) in &self.documents {
            if let Some(p) = find_address(root, address(target), String::new(), 0) {
                return Src { doc: doc.clone(), pointer: p };
            }
        }
        Src { doc: Some("(unknown)".to_owned()), pointer: String::new() }
    }
}

fn from_referencing(d: referencing::Draft, fallback: Draft) -> Draft {
    match d {
        referencing::Draft::Draft4 => Draft::Draft4,
        referencing::Draft::Draft6 => Draft::Draft6,
        referencing::Draft::Draft7 => Draft::Draft7,
        referencing::Draft::Draft201909 => Draft::Draft201909,
        referencing::Draft::Draft202012 => Draft::Draft202012,
        _ => fallback,
    }
}

/// The node of the root resource (not entering embedded resources) that
/// declares `$dynamicAnchor: name`.
fn find_dynamic_anchor<'a>(root: &'a Value, name: &str) -> Option<&'a Value> {
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        let Value::Object(m) = v else { continue };
        if !std::ptr::eq(v, root) && m.contains_key("$id") {
            continue;
        }
        if m.get("$dynamicAnchor").and_then(Value::as_str) == Some(name) {
            return Some(v);
        }
        vocab::for_each_child_in(Draft::Draft202012, m, |c| stack.push(c.schema));
    }
    None
}

fn find_address(v: &Value, addr: usize, at: String, depth: usize) -> Option<String> {
    if address(v) == addr {
        return Some(at);
    }
    if depth > crate::vocab::MAX_DEPTH_CEILING {
        return None;
    }
    match v {
        Value::Object(m) => m.iter().find_map(|(k, c)| find_address(c, addr, pointer::push(&at, k), depth + 1)),
        Value::Array(a) => {
            a.iter().enumerate().find_map(|(i, c)| find_address(c, addr, pointer::push_index(&at, i), depth + 1))
        }
        _ => None,
    }
}

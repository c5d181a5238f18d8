//! Sets of JSON types, with `integer` as the part of `number` it is.

use serde_json::Value;

/// A set of JSON Schema types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeSet {
    pub(crate) null: bool,
    pub(crate) boolean: bool,
    pub(crate) object: bool,
    pub(crate) array: bool,
    pub(crate) string: bool,
    /// Integers (whole numbers) are allowed.
    pub(crate) integer: bool,
    /// Every number is allowed (implies `integer`).
    pub(crate) number: bool,
}

impl TypeSet {
    pub(crate) const ALL: TypeSet =
        TypeSet { null: true, boolean: true, object: true, array: true, string: true, integer: true, number: true };
    pub(crate) const NONE: TypeSet = TypeSet {
        null: false,
        boolean: false,
        object: false,
        array: false,
        string: false,
        integer: false,
        number: false,
    };

    /// Only objects.
    pub(crate) fn object_only() -> TypeSet {
        TypeSet { object: true, ..TypeSet::NONE }
    }

    /// Reads a `type` keyword value; `None` when malformed.
    pub(crate) fn from_keyword(v: &Value) -> Option<TypeSet> {
        let mut t = TypeSet::NONE;
        let mut add = |name: &str| -> bool {
            match name {
                "null" => t.null = true,
                "boolean" => t.boolean = true,
                "object" => t.object = true,
                "array" => t.array = true,
                "string" => t.string = true,
                "integer" => t.integer = true,
                "number" => {
                    t.number = true;
                    t.integer = true;
                }
                _ => return false,
            }
            true
        };
        match v {
            Value::String(s) => add(s).then_some(t),
            Value::Array(items) => items.iter().all(|i| i.as_str().is_some_and(&mut add)).then_some(t),
            _ => None,
        }
    }

    pub(crate) fn intersect(self, o: TypeSet) -> TypeSet {
        TypeSet {
            null: self.null && o.null,
            boolean: self.boolean && o.boolean,
            object: self.object && o.object,
            array: self.array && o.array,
            string: self.string && o.string,
            integer: self.integer && o.integer,
            number: self.number && o.number,
        }
    }

    pub(crate) fn union(self, o: TypeSet) -> TypeSet {
        TypeSet {
            null: self.null || o.null,
            boolean: self.boolean || o.boolean,
            object: self.object || o.object,
            array: self.array || o.array,
            string: self.string || o.string,
            integer: self.integer || o.integer,
            number: self.number || o.number,
        }
    }

    /// The set of the one type of `v` (integers are numbers too).
    pub(crate) fn of_value(v: &Value) -> TypeSet {
        let mut t = TypeSet::NONE;
        match v {
            Value::Null => t.null = true,
            Value::Bool(_) => t.boolean = true,
            Value::Object(_) => t.object = true,
            Value::Array(_) => t.array = true,
            Value::String(_) => t.string = true,
            Value::Number(n) => {
                // A whole number needs only `integer`; any other number needs `number`.
                t.integer = true;
                t.number = !is_integer(n);
            }
        }
        t
    }

    /// Does the set admit `v`?
    pub(crate) fn admits(self, v: &Value) -> bool {
        match v {
            Value::Null => self.null,
            Value::Bool(_) => self.boolean,
            Value::Object(_) => self.object,
            Value::Array(_) => self.array,
            Value::String(_) => self.string,
            Value::Number(n) => self.number || (self.integer && is_integer(n)),
        }
    }

    pub(crate) fn is_empty(self) -> bool {
        self == TypeSet::NONE
    }

    /// Type names in canonical order (`number` absorbs `integer`).
    pub(crate) fn names(self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.string {
            out.push("string");
        }
        if self.number {
            out.push("number");
        } else if self.integer {
            out.push("integer");
        }
        if self.boolean {
            out.push("boolean");
        }
        if self.object {
            out.push("object");
        }
        if self.array {
            out.push("array");
        }
        if self.null {
            out.push("null");
        }
        out
    }

    /// The set as a `type` keyword value.
    pub(crate) fn to_keyword(self) -> Value {
        let names = self.names();
        if names.len() == 1 {
            Value::String(names[0].to_owned())
        } else {
            Value::Array(names.into_iter().map(|n| Value::String(n.to_owned())).collect())
        }
    }

    pub(crate) fn has_numbers(self) -> bool {
        self.integer || self.number
    }
}

/// Is `n` a whole number?
pub(crate) fn is_integer(n: &serde_json::Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

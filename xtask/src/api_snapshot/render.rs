//! How the public-API list writes a signature: functions with their qualifiers, generics and
//! where clauses, bounds, paths and types, each from its rustdoc JSON, types by their last path
//! segment. Apart from the walk over the crate's items (`api_snapshot.rs`), which decides what
//! is listed; this decides how a line reads.

use serde_json::Value;

/// `fn path<G>(args) -> out`, with its qualifiers.
pub(super) fn function(path: &str, body: &Value) -> String {
    let header = &body["header"];
    let mut qualifiers = String::new();
    for (flag, word) in [
        ("is_const", "const "),
        ("is_async", "async "),
        ("is_unsafe", "unsafe "),
    ] {
        if header[flag] == true {
            qualifiers.push_str(word);
        }
    }
    if let Some(abi) = header["abi"].as_object()
        && let Some((name, _)) = abi.iter().next()
    {
        qualifiers.push_str(&format!("extern \"{name}\" "));
    }
    let sig = &body["sig"];
    let inputs: Vec<String> = sig["inputs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|input| {
            let name = input[0].as_str().unwrap_or("_");
            let ty = ty(&input[1]);
            match (name, ty.as_str()) {
                ("self", "Self") => "self".to_owned(),
                ("self", "&Self") => "&self".to_owned(),
                ("self", "&mut Self") => "&mut self".to_owned(),
                _ => format!("{name}: {ty}"),
            }
        })
        .collect();
    let output = if sig["output"].is_null() {
        String::new()
    } else {
        format!(" -> {}", ty(&sig["output"]))
    };
    format!(
        "{qualifiers}fn {path}{}({}){output}{}",
        generics(&body["generics"]),
        inputs.join(", "),
        where_clause(&body["generics"])
    )
}

pub(super) fn last(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path)
}

/// `<'a, T: Bound, const N: usize>` (impl-Trait parameters left out: they are in the
/// signature).
pub(super) fn generics(generics: &Value) -> String {
    let params: Vec<String> = generics["params"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|param| {
            let name = param["name"].as_str().unwrap_or("?");
            let kind = &param["kind"];
            if let Some(lifetime) = kind.get("lifetime") {
                let outlives: Vec<&str> = lifetime["outlives"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                Some(if outlives.is_empty() {
                    name.to_owned()
                } else {
                    format!("{name}: {}", outlives.join(" + "))
                })
            } else if let Some(ty_param) = kind.get("type") {
                if ty_param["is_synthetic"] == true {
                    return None;
                }
                let bounds = bounds(&ty_param["bounds"]);
                let default = if ty_param["default"].is_null() {
                    String::new()
                } else {
                    format!(" = {}", ty(&ty_param["default"]))
                };
                Some(if bounds.is_empty() {
                    format!("{name}{default}")
                } else {
                    format!("{name}: {bounds}{default}")
                })
            } else if let Some(constant) = kind.get("const") {
                Some(format!("const {name}: {}", ty(&constant["type"])))
            } else {
                Some(name.to_owned())
            }
        })
        .collect();
    if params.is_empty() {
        String::new()
    } else {
        format!("<{}>", params.join(", "))
    }
}

fn where_clause(generics: &Value) -> String {
    let predicates: Vec<String> = generics["where_predicates"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|predicate| {
            if let Some(bound) = predicate.get("bound_predicate") {
                format!("{}: {}", ty(&bound["type"]), bounds(&bound["bounds"]))
            } else {
                compact(predicate)
            }
        })
        .collect();
    if predicates.is_empty() {
        String::new()
    } else {
        format!(" where {}", predicates.join(", "))
    }
}

pub(super) fn bounds(bounds: &Value) -> String {
    bounds
        .as_array()
        .into_iter()
        .flatten()
        .map(|bound| {
            if let Some(trait_bound) = bound.get("trait_bound") {
                let modifier = if trait_bound["modifier"] == "maybe" {
                    "?"
                } else {
                    ""
                };
                format!("{modifier}{}", path_of(&trait_bound["trait"]))
            } else if let Some(lifetime) = bound.get("outlives") {
                lifetime.as_str().unwrap_or("?").to_owned()
            } else {
                compact(bound)
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// A path with its generic arguments, by its last segment.
fn path_of(path: &Value) -> String {
    format!(
        "{}{}",
        last(path["path"].as_str().unwrap_or("?")),
        args(&path["args"])
    )
}

pub(super) fn args(args: &Value) -> String {
    if let Some(angle) = args.get("angle_bracketed") {
        let mut parts: Vec<String> = angle["args"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|arg| {
                if let Some(t) = arg.get("type") {
                    ty(t)
                } else if let Some(lifetime) = arg.get("lifetime") {
                    lifetime.as_str().unwrap_or("?").to_owned()
                } else if let Some(constant) = arg.get("const") {
                    constant["expr"].as_str().unwrap_or("?").to_owned()
                } else {
                    "_".to_owned()
                }
            })
            .collect();
        for constraint in angle["constraints"].as_array().into_iter().flatten() {
            let name = constraint["name"].as_str().unwrap_or("?");
            let binding = &constraint["binding"];
            if let Some(equality) = binding.get("equality") {
                let value = equality.get("type").map_or_else(|| compact(equality), ty);
                parts.push(format!("{name} = {value}"));
            } else if let Some(constraint_bounds) = binding.get("constraint") {
                parts.push(format!("{name}: {}", bounds(constraint_bounds)));
            }
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("<{}>", parts.join(", "))
        }
    } else if let Some(paren) = args.get("parenthesized") {
        let inputs: Vec<String> = paren["inputs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(ty)
            .collect();
        let output = if paren["output"].is_null() {
            String::new()
        } else {
            format!(" -> {}", ty(&paren["output"]))
        };
        format!("({}){output}", inputs.join(", "))
    } else {
        String::new()
    }
}

/// A type as written, paths by their last segment.
pub(super) fn ty(t: &Value) -> String {
    let Some((kind, body)) = t.as_object().and_then(|o| o.iter().next()) else {
        return compact(t);
    };
    match kind.as_str() {
        "resolved_path" => path_of(body),
        "generic" | "primitive" => body.as_str().unwrap_or("?").to_owned(),
        "borrowed_ref" => {
            let lifetime = body["lifetime"]
                .as_str()
                .map(|l| format!("{l} "))
                .unwrap_or_default();
            let mutable = if body["is_mutable"] == true {
                "mut "
            } else {
                ""
            };
            format!("&{lifetime}{mutable}{}", ty(&body["type"]))
        }
        "raw_pointer" => {
            let mutable = if body["is_mutable"] == true {
                "mut"
            } else {
                "const"
            };
            format!("*{mutable} {}", ty(&body["type"]))
        }
        "slice" => format!("[{}]", ty(body)),
        "array" => format!(
            "[{}; {}]",
            ty(&body["type"]),
            body["len"].as_str().unwrap_or("?")
        ),
        "tuple" => {
            let items: Vec<String> = body.as_array().into_iter().flatten().map(ty).collect();
            format!("({})", items.join(", "))
        }
        "impl_trait" => format!("impl {}", bounds(body)),
        "dyn_trait" => {
            let mut parts: Vec<String> = body["traits"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|each| path_of(&each["trait"]))
                .collect();
            if let Some(lifetime) = body["lifetime"].as_str() {
                parts.push(lifetime.to_owned());
            }
            format!("dyn {}", parts.join(" + "))
        }
        "qualified_path" => {
            let trait_ = if body["trait"].is_null() {
                String::new()
            } else {
                format!(" as {}", path_of(&body["trait"]))
            };
            format!(
                "<{}{trait_}>::{}",
                ty(&body["self_type"]),
                body["name"].as_str().unwrap_or("?")
            )
        }
        "function_pointer" => {
            let sig = &body["sig"];
            let inputs: Vec<String> = sig["inputs"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|input| ty(&input[1]))
                .collect();
            let output = if sig["output"].is_null() {
                String::new()
            } else {
                format!(" -> {}", ty(&sig["output"]))
            };
            let header = &body["header"];
            let unsafe_ = if header["is_unsafe"] == true {
                "unsafe "
            } else {
                ""
            };
            let abi = header["abi"]
                .as_object()
                .and_then(|abi| abi.keys().next().cloned())
                .map(|abi| format!("extern \"{abi}\" "))
                .unwrap_or_default();
            format!("{unsafe_}{abi}fn({}){output}", inputs.join(", "))
        }
        "infer" => "_".to_owned(),
        _ => compact(t),
    }
}

/// Any shape this reader does not know, as compact JSON: still deterministic, so a change of
/// it still shows.
fn compact(value: &Value) -> String {
    value.to_string()
}

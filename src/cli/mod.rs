//! Command-line front end. Exit codes: 0 success, 1 the input has problems
//! (schema errors, a failed `--lines` line), 2 usage or I/O errors.

mod args;
mod bench;
mod check;
mod coverage;
mod decode;
mod emit;
mod io;

pub(crate) use args::Args;
pub(crate) use io::Io;

/// The schema used by `emit` when no file is given.
pub(crate) const EXAMPLE_SCHEMA: &str = include_str!("../../fixtures/examples/quickstart.json");

pub(crate) const USAGE: &str = "\
schemacast: compile a JSON Schema into an LLM provider's structured-output request fragment

USAGE:
  schemacast emit --provider P [--mode schema|json|text] [--name N] [--body] [--explain] [--lines]
                  [--gemini-dialect response-schema|json-schema] [--no-closed-world]
                  [--no-union-closing] [--no-default-filling]
                  [--claude-mechanism tool|strict-tool|output-format|output-format-beta]
                  [--draft 4|6|7|2019-09|2020-12] [--resource FILE]... [--deny-unknown-keywords] [FILE|-]
  schemacast check [--draft D] [--resource FILE]... [--deny-unknown-keywords] [FILE|-]
  schemacast decode --provider P --schema FILE [emit options] [--stream] [RESPONSE|TRANSCRIPT|-]
  schemacast validate SCHEMA INSTANCE
  schemacast coverage [--draft D] [emit options] DIR
  schemacast bench [--rounds N] [--provider P] [--mode M] [emit options] [DIR|FILE...]
  schemacast bench --stream [--rounds N] [--provider P]
  schemacast providers
  schemacast --help | --version

emit   prints {\"provider\",\"mode\",\"enforcement\",\"body\",\"headers\",\"notes\"} (--body: the body only;
       --explain adds \"native_schema\": what the provider may return, as a JSON Schema, or null).
       Without FILE it compiles the bundled example schema (fixtures/examples/quickstart.json);
       `-` reads standard input. --lines reads one schema per line and writes one line per line;
       a failing line gives {\"error\":{\"kind\",\"pointer\",\"message\"}} and the run goes on.
check  runs the preflight checks and prints every problem with its JSON Pointer.
decode recomputes the emission for the same options, reads the provider's whole response body,
       and prints the validated answer (exit 0) or every problem (exit 1). --stream reads a streamed
       response instead (SSE or NDJSON, as the provider sent it) and prints the answer so far after
       each event that changed it, one compact JSON line each, then the answer; an early error (the
       answer can no longer be valid) goes to stderr as soon as it is certain.
validate checks INSTANCE against SCHEMA with the local validator.
providers prints the table of providers: request fields, JSON mode, what is enforced, native
       keywords, limits and options (Markdown; the README's table is this output).
coverage prints, per provider, the share of the schemas under DIR (plain schema files or
       JSON-Schema-Test-Suite files) at each enforcement level in mode `schema`.
bench  times emission (compile + serialise the body) per schema for every provider x mode, and
       decode per answer, each as a ratio to its floor measured in the same run (clone + serialise;
       parse + validate), with the peak memory of each row. Default corpora: fixtures/ and
       fixtures/json-schema-test-suite/draft2020-12. Build with --release.
       --stream times a 100 KB answer streamed in 16-byte events against one decode of the whole
       response, per provider (events parsed, and from the raw SSE text).

Providers: openai, openai-responses, azure, groq, mistral, openrouter, deepseek, xai, cerebras,
together, fireworks, perplexity, gemini, vertex, claude (alias anthropic), bedrock, ollama,
llamacpp, vllm, cohere (`schemacast providers` for the table).
More emit options: --claude-json-tool (Mode json forces a tool with an open object),
--reshape (reversible rewrites: optional -> required and nullable (or null | {\"value\": ...} when the
schema accepts null), maps -> [{\"key\", \"value\"}] pairs, what the dialect cannot say -> a string of
its JSON text, non-object root -> {\"value\": ...}; decode undoes them),
--no-closed-world, --no-union-closing, --no-default-filling (turn off the projection's readings:
closing objects, closing unions by branch, filling in defaults),
--draft D (the draft of schemas without `$schema`; default 2020-12),
--resource FILE (a document references may name, registered under its path and its `$id`;
repeatable; the root file's path is its base URI, so `\"$ref\": \"defs.json#/...\"` between files
of one folder works; nothing is ever fetched).
Exit status: 0 success, 1 the schema (or a line) has problems, 2 usage or I/O error.";

/// Runs the CLI and returns the exit status.
pub(crate) fn run(raw: &[String], io: &mut Io<'_>) -> i32 {
    let Some((command, rest)) = raw.split_first() else {
        io.eprint(USAGE);
        return 2;
    };
    match command.as_str() {
        "-h" | "--help" | "help" => {
            io.print(USAGE);
            0
        }
        "-V" | "--version" => {
            io.print(&format!("schemacast {}", env!("CARGO_PKG_VERSION")));
            0
        }
        "emit" | "check" | "decode" | "validate" | "coverage" | "bench" | "providers" => match Args::parse(rest) {
            Ok(args) if args.help => {
                io.print(USAGE);
                0
            }
            Ok(args) if command != "bench" && args.too_many().is_some() => {
                let extra = args.too_many().unwrap_or_default();
                usage_error(io, &format!("too many file arguments (also got `{extra}`)"))
            }
            Ok(mut args) => {
                let root = if command == "decode" { args.schema.clone() } else { args.input.clone() };
                if let Err((code, message)) = args.load_documents(root.as_deref()) {
                    io.eprint(&format!("error: {message}"));
                    return code;
                }
                match command.as_str() {
                    "emit" => emit::run(&args, io),
                    "check" => check::run(&args, io),
                    "decode" => decode::decode(&args, io),
                    "validate" => decode::validate(&args, io),
                    "coverage" => coverage::run(&args, io),
                    "bench" => bench::run(&args, io),
                    _ => providers(io),
                }
            }
            Err(message) => usage_error(io, &message),
        },
        other => usage_error(io, &format!("unknown command `{other}`")),
    }
}

fn providers(io: &mut Io<'_>) -> i32 {
    io.print(&providers_table());
    0
}

/// The provider table as Markdown, one row per provider, from
/// [`schemacast::Provider::info`]. The README embeds this output verbatim.
pub(crate) fn providers_table() -> String {
    let mut out = String::from(
        "| Provider | API | Mode `schema` sends | Mode `json` sends | Enforces | Native keywords | Limits | Options |\n\
         |---|---|---|---|---|---|---|---|",
    );
    for p in schemacast::Provider::ALL {
        let i = p.info();
        let name = if i.aliases.is_empty() {
            format!("`{}`", i.name)
        } else {
            format!("`{}` ({})", i.name, i.aliases.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", "))
        };
        let cells =
            [name, i.api.to_owned(), i.schema_request, i.json_request, i.enforces, i.keywords, i.limits, i.options];
        out.push_str("\n| ");
        out.push_str(&cells.map(|c| c.replace('|', "\\|")).join(" | "));
        out.push_str(" |");
    }
    out
}

pub(crate) fn usage_error(io: &mut Io<'_>, message: &str) -> i32 {
    io.eprint(&format!("error: {message}\n\nrun `schemacast --help` for usage"));
    2
}

#[cfg(test)]
mod tests;

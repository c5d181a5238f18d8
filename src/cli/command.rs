//! The command line's grammar, declared with clap: every subcommand, its flags
//! and their help, turned into the [`Args`] the subcommands read.

use super::Args;
use clap::{Parser, Subcommand};
use schemacast::{ClaudeMechanism, Draft, GeminiDialect, Mode, Provider};

/// What follows the subcommand list in `schemacast --help`.
const AFTER_HELP: &str = "\
Exit status: 0 success, 1 the input has problems (schema errors, an invalid answer, a failed
`--lines` line), 2 usage or I/O errors.

`emit`, `check` and `emit --lines` read standard input when no FILE is given and standard
input is not a terminal (or when FILE is `-`). Run `schemacast providers` for the providers,
`schemacast SUBCOMMAND --help` for each subcommand's flags.";

#[derive(Debug, Parser)]
#[command(
    name = "schemacast",
    version,
    about = "Compile a JSON Schema into an LLM provider's structured-output request fragment, and decode the answer",
    after_help = AFTER_HELP,
    arg_required_else_help = true,
    disable_help_subcommand = true
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print the request fragment for a provider: {"provider","mode","enforcement","body","headers","notes"}
    #[command(after_help = "Without FILE and with standard input a terminal, compiles the bundled example \
        schema (fixtures/examples/quickstart.json). --lines reads one schema per line and writes one line \
        per line; a failing line gives {\"error\":{\"kind\",\"pointer\",\"message\"}} and the run goes on.")]
    Emit {
        #[command(flatten)]
        compile: Compile,
        /// Print the request body only.
        #[arg(long)]
        body: bool,
        /// Add "native_schema": what the provider may return, as a JSON Schema (or null).
        #[arg(long)]
        explain: bool,
        /// One schema per input line, one output line per input line.
        #[arg(long)]
        lines: bool,
        /// The schema file (`-`: standard input).
        file: Option<String>,
    },
    /// Run the preflight checks and print every problem with its JSON Pointer.
    Check {
        #[command(flatten)]
        read: Read,
        /// The schema file (`-`: standard input).
        file: Option<String>,
    },
    /// Read a provider's response (or, with --stream, its streamed transcript) and print the validated answer.
    #[command(after_help = "The emission is recomputed with the same options. --stream reads SSE or NDJSON as \
        the provider sent it and prints the answer so far after each event that changed it, one compact JSON \
        line each, then the answer; an early error goes to stderr as soon as it is certain.")]
    Decode {
        #[command(flatten)]
        compile: Compile,
        /// The schema the request was compiled from.
        #[arg(long, value_name = "FILE")]
        schema: String,
        /// The input is a streamed transcript (SSE or NDJSON).
        #[arg(long)]
        stream: bool,
        /// The response body or transcript (`-` or absent: standard input).
        response: Option<String>,
    },
    /// Check INSTANCE against SCHEMA with the local validator.
    Validate {
        #[command(flatten)]
        read: Read,
        /// Read `format` as an annotation: not checked.
        #[arg(long)]
        no_format_assertion: bool,
        /// The schema file.
        schema: String,
        /// The instance file (`-`: standard input).
        instance: String,
    },
    /// The share of the schemas under DIR at each enforcement level, per provider (mode `schema`).
    #[command(after_help = "With --provider P: that provider's row, then each schema not sent a native schema, \
        with what stops it and whether --reshape would send one.")]
    Coverage {
        #[command(flatten)]
        compile: Compile,
        /// A folder of schema files or JSON-Schema-Test-Suite files.
        dir: String,
    },
    /// Time emission and decode against their floors (build with --release).
    #[command(after_help = "Default corpora: fixtures/ and fixtures/json-schema-test-suite/draft2020-12. \
        --stream times a 100 KB answer streamed in 16-byte events against one decode of the whole response, \
        per provider.")]
    Bench {
        #[command(flatten)]
        compile: Compile,
        /// Rounds per measurement.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        rounds: Option<u64>,
        /// Time the stream decoder instead.
        #[arg(long)]
        stream: bool,
        /// Folders or files of schemas.
        paths: Vec<String>,
    },
    /// Print the table of providers (Markdown): request fields, JSON mode, what is enforced, keywords, limits.
    Providers,
    /// Print a shell completion script (bash, elvish, fish, powershell, zsh) to standard output.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// How a schema is read: its draft, supplied documents, unknown keywords.
#[derive(Debug, Default, clap::Args)]
pub(crate) struct Read {
    /// The draft of a schema without `$schema`: 4, 6, 7, 2019-09 or 2020-12.
    #[arg(long, value_name = "D", value_parser = parse::<Draft>)]
    draft: Option<Draft>,
    /// A document the schema refers to (repeatable), registered under its path and its `$id`.
    #[arg(long, value_name = "FILE")]
    resource: Vec<String>,
    /// Reject unknown keywords instead of reading them as annotations.
    #[arg(long)]
    deny_unknown_keywords: bool,
}

/// The compile options.
#[derive(Debug, Default, clap::Args)]
pub(crate) struct Compile {
    /// The provider (see `schemacast providers`).
    #[arg(short, long, value_name = "P", value_parser = parse::<Provider>)]
    provider: Option<Provider>,
    /// schema, json or text.
    #[arg(short, long, value_name = "M", value_parser = parse::<Mode>)]
    mode: Option<Mode>,
    /// The name given to the schema (tool or format name).
    #[arg(long, value_name = "N")]
    name: Option<String>,
    /// Never close open objects (no closed-world projection).
    #[arg(long)]
    no_closed_world: bool,
    /// Close objects across a union's branches together, not branch by branch.
    #[arg(long)]
    no_union_closing: bool,
    /// Do not fill in declared defaults.
    #[arg(long)]
    no_default_filling: bool,
    /// Read `format` as an annotation: not checked locally, never sent natively.
    #[arg(long)]
    no_format_assertion: bool,
    /// Gemini: response-schema (responseSchema) or json-schema (responseJsonSchema).
    #[arg(long, value_name = "D", value_parser = parse::<GeminiDialect>)]
    gemini_dialect: Option<GeminiDialect>,
    /// Claude: tool, strict-tool, output-format or output-format-beta.
    #[arg(long, value_name = "M", value_parser = parse::<ClaudeMechanism>)]
    claude_mechanism: Option<ClaudeMechanism>,
    /// Claude has no JSON mode: make `--mode json` force a tool taking any object.
    #[arg(long)]
    claude_json_tool: bool,
    /// Claude: the request turns on extended thinking, so a tool is offered, never forced.
    #[arg(long)]
    claude_thinking: bool,
    /// Apply reversible rewrites (undone by decode) to reach native enforcement.
    #[arg(long)]
    reshape: bool,
    #[command(flatten)]
    read: Read,
}

/// Parses with the library's `FromStr`, whose message names the known values
/// and the closest one.
fn parse<T: std::str::FromStr<Err = schemacast::Error>>(s: &str) -> Result<T, String> {
    s.parse::<T>().map_err(|e| e.message().to_owned())
}

impl Read {
    fn into_args(self, args: &mut Args) {
        args.draft = self.draft;
        args.resources = self.resource;
        args.deny_unknown_keywords = self.deny_unknown_keywords;
    }
}

impl Compile {
    fn into_args(self, args: &mut Args) {
        args.provider = self.provider;
        args.mode = self.mode;
        args.name = self.name;
        args.open_world = self.no_closed_world;
        args.no_union_closing = self.no_union_closing;
        args.no_default_filling = self.no_default_filling;
        args.no_format_assertion = self.no_format_assertion;
        args.gemini_dialect = self.gemini_dialect;
        args.claude_mechanism = self.claude_mechanism;
        args.claude_json_tool = self.claude_json_tool;
        args.claude_thinking = self.claude_thinking;
        args.reshape = self.reshape;
        self.read.into_args(args);
    }
}

/// The subcommand to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Run {
    Emit,
    Check,
    Decode,
    Validate,
    Coverage,
    Bench,
    Providers,
    Completions(clap_complete::Shell),
}

impl Command {
    /// The subcommand and its flags as [`Args`].
    pub(crate) fn into_args(self) -> (Run, Args) {
        let mut args = Args::default();
        let run = match self {
            Command::Emit { compile, body, explain, lines, file } => {
                compile.into_args(&mut args);
                (args.body_only, args.explain, args.lines, args.input) = (body, explain, lines, file);
                Run::Emit
            }
            Command::Check { read, file } => {
                read.into_args(&mut args);
                args.input = file;
                Run::Check
            }
            Command::Decode { compile, schema, stream, response } => {
                compile.into_args(&mut args);
                (args.schema, args.stream, args.input) = (Some(schema), stream, response);
                Run::Decode
            }
            Command::Validate { read, no_format_assertion, schema, instance } => {
                read.into_args(&mut args);
                args.no_format_assertion = no_format_assertion;
                (args.input, args.second) = (Some(schema), Some(instance));
                Run::Validate
            }
            Command::Coverage { compile, dir } => {
                compile.into_args(&mut args);
                args.input = Some(dir);
                Run::Coverage
            }
            Command::Bench { compile, rounds, stream, paths } => {
                compile.into_args(&mut args);
                args.rounds = rounds.and_then(|r| usize::try_from(r).ok());
                args.stream = stream;
                args.extra = paths;
                Run::Bench
            }
            Command::Providers => Run::Providers,
            Command::Completions { shell } => Run::Completions(shell),
        };
        (run, args)
    }
}

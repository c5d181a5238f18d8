//! Command-line front end. Exit codes: 0 success, 1 the input has problems
//! (schema errors, a failed `--lines` line), 2 usage or I/O errors.

mod args;
mod bench;
mod check;
mod command;
mod coverage;
mod decode;
mod emit;
mod io;

pub(crate) use args::Args;
use command::Run;
pub(crate) use io::Io;

/// The schema used by `emit` when no file is given.
pub(crate) const EXAMPLE_SCHEMA: &str = include_str!("../../fixtures/examples/quickstart.json");

/// Runs one command line (without the program name); returns the exit status.
pub(crate) fn run(raw: &[String], io: &mut Io<'_>) -> i32 {
    let argv = std::iter::once("schemacast".to_owned()).chain(raw.iter().cloned());
    let cli = match <command::Cli as clap::Parser>::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            let text = e.render().to_string();
            return if e.use_stderr() {
                io.eprint(text.trim_end());
                2
            } else {
                io.print(text.trim_end());
                0
            };
        }
    };
    let (command, mut args) = cli.command.into_args();
    let root = if command == Run::Decode { args.schema.clone() } else { args.input.clone() };
    if let Err((code, message)) = args.load_documents(root.as_deref()) {
        io.eprint(&format!("error: {message}"));
        return code;
    }
    match command {
        Run::Emit => emit::run(&args, io),
        Run::Check => check::run(&args, io),
        Run::Decode => decode::decode(&args, io),
        Run::Validate => decode::validate(&args, io),
        Run::Coverage => coverage::run(&args, io),
        Run::Bench => bench::run(&args, io),
        Run::Providers => providers(io),
        Run::Completions(shell) => {
            let mut cmd = <command::Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut cmd, "schemacast", io.out);
            0
        }
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

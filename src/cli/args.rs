//! Hand-rolled argument parsing: a handful of flags do not need a parser crate.

use schemacast::{ClaudeMechanism, GeminiDialect, Mode, Options, Provider};

/// Parsed flags shared by the subcommands.
#[derive(Debug, Default)]
pub(crate) struct Args {
    pub(crate) provider: Option<Provider>,
    pub(crate) mode: Option<Mode>,
    pub(crate) name: Option<String>,
    pub(crate) body_only: bool,
    pub(crate) explain: bool,
    pub(crate) lines: bool,
    pub(crate) deny_unknown_keywords: bool,
    pub(crate) open_world: bool,
    pub(crate) gemini_dialect: Option<GeminiDialect>,
    pub(crate) claude_json_tool: bool,
    pub(crate) claude_mechanism: Option<ClaudeMechanism>,
    pub(crate) reshape: bool,
    /// `decode --stream`: the input is an SSE or NDJSON transcript.
    pub(crate) stream: bool,
    pub(crate) schema: Option<String>,
    pub(crate) help: bool,
    pub(crate) input: Option<String>,
    /// A second positional argument (`validate SCHEMA INSTANCE`).
    pub(crate) second: Option<String>,
    /// Further positional arguments (only `bench` takes them).
    pub(crate) extra: Vec<String>,
    /// `bench --rounds N`.
    pub(crate) rounds: Option<usize>,
}

impl Args {
    /// The first positional argument beyond the two most commands take, if any.
    pub(crate) fn too_many(&self) -> Option<&str> {
        self.extra.first().map(String::as_str)
    }

    pub(crate) fn parse(raw: &[String]) -> Result<Args, String> {
        let mut args = Args::default();
        let mut it = raw.iter();
        while let Some(arg) = it.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
                _ => (arg.as_str(), None),
            };
            let mut value = |name: &str| -> Result<String, String> {
                inline.clone().or_else(|| it.next().cloned()).ok_or_else(|| format!("`{name}` needs a value"))
            };
            match flag {
                "--provider" | "-p" => {
                    let v = value("--provider")?;
                    args.provider = Some(v.parse::<Provider>().map_err(|e| e.message().to_owned())?);
                }
                "--mode" | "-m" => {
                    let v = value("--mode")?;
                    args.mode = Some(v.parse::<Mode>().map_err(|e| e.message().to_owned())?);
                }
                "--name" => args.name = Some(value("--name")?),
                "--body" => args.body_only = true,
                "--explain" => args.explain = true,
                "--lines" => args.lines = true,
                "--deny-unknown-keywords" => args.deny_unknown_keywords = true,
                "--no-closed-world" => args.open_world = true,
                "--claude-json-tool" => args.claude_json_tool = true,
                "--reshape" => args.reshape = true,
                "--stream" => args.stream = true,
                "--schema" => args.schema = Some(value("--schema")?),
                "--gemini-dialect" => {
                    let v = value("--gemini-dialect")?;
                    args.gemini_dialect = Some(v.parse::<GeminiDialect>().map_err(|e| e.message().to_owned())?);
                }
                "--claude-mechanism" => {
                    let v = value("--claude-mechanism")?;
                    args.claude_mechanism = Some(v.parse::<ClaudeMechanism>().map_err(|e| e.message().to_owned())?);
                }
                "--rounds" => {
                    let v = value("--rounds")?;
                    let n = v.parse::<usize>().ok().filter(|n| *n > 0);
                    args.rounds =
                        Some(n.ok_or_else(|| format!("`--rounds` needs a positive whole number, got `{v}`"))?);
                }
                "-h" | "--help" => args.help = true,
                "-" => set_input(&mut args, "-")?,
                f if f.starts_with('-') => return Err(format!("unknown flag `{f}`")),
                path => set_input(&mut args, path)?,
            }
        }
        Ok(args)
    }

    /// Library options for `provider` from the flags.
    pub(crate) fn options(&self, provider: Provider) -> Options {
        let mut o = Options::new(provider)
            .with_mode(self.mode.unwrap_or(Mode::Schema))
            .with_deny_unknown_keywords(self.deny_unknown_keywords)
            .with_closed_world(!self.open_world)
            .with_claude_json_tool(self.claude_json_tool)
            .with_reshape(self.reshape);
        if let Some(d) = self.gemini_dialect {
            o = o.with_gemini_dialect(d);
        }
        if let Some(m) = self.claude_mechanism {
            o = o.with_claude_mechanism(m);
        }
        if let Some(n) = &self.name {
            o = o.with_name(n.clone());
        }
        o
    }
}

fn set_input(args: &mut Args, path: &str) -> Result<(), String> {
    match (&args.input, &args.second) {
        (None, _) => args.input = Some(path.to_owned()),
        (Some(_), None) => args.second = Some(path.to_owned()),
        _ => args.extra.push(path.to_owned()),
    }
    Ok(())
}

//! The `schemacast` command line: see `schemacast --help`.

#![forbid(unsafe_code)]

mod cli;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let stdin_terminal = std::io::IsTerminal::is_terminal(&stdin);
    let mut io = cli::Io { stdin: &mut stdin.lock(), out: &mut stdout.lock(), err: &mut stderr.lock(), stdin_terminal };
    let code = cli::run(&args, &mut io);
    std::process::exit(code);
}

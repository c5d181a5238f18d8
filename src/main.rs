//! The `schemacast` command line: see `schemacast --help`.

#![forbid(unsafe_code)]

mod cli;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut io = cli::Io { stdin: &mut stdin.lock(), out: &mut stdout.lock(), err: &mut stderr.lock() };
    let code = cli::run(&args, &mut io);
    std::process::exit(code);
}

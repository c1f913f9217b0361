//! The `ctxguard` binary: the command line is in `cli/`, everything else
//! in the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

//! The `ctxguard` binary: the command line is in `cli/`, everything else
//! in the library.

mod cli;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}

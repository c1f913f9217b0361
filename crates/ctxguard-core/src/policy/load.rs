//! Loading policy files and resolving `extends`. The only policy code that
//! touches the file system; everything after it works on models.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::diagnostics::codes::policy as codes;
use crate::diagnostics::{Diagnostic, Severity};
use crate::policy::ast::{ParentRef, StatementKind};
use crate::policy::lint::{resolve, Parent};
use crate::policy::parse::parse;
use crate::policy::Policy;
use crate::source::access::Admitted;
use crate::source::read::{self as input, Unread};
use crate::source::{Access, Refusal, SourceFile, Span};

/// The default policy, built into the binary.
pub const DEFAULT_POLICY: &str = include_str!("../../policies/default.policy");

/// The deepest `extends` chain read: each policy holds a copy of its
/// parent's model, so the chain's memory grows with the square of its depth.
pub const MAX_EXTENDS_DEPTH: usize = 32;

/// How the built-in default policy is named in diagnostics.
pub const DEFAULT_POLICY_NAME: &str = "<built-in>/default.policy";

/// The policy a command runs under: the file given, or the built-in default.
/// A policy with errors is refused with its diagnostics: a policy that does
/// not say what it means cannot decide a verdict. Warnings are returned too.
pub fn policy_for_use(
    path: Option<&Path>,
    access: &Access,
) -> Result<(Arc<Policy>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut loader = Loader::with_access(access.clone());
    let loaded = match path {
        Some(path) => loader.load_path(path),
        None => loader.load_builtin(),
    };
    usable(&loader, &loaded)
}

impl Policy {
    /// The built-in default policy (`crates/ctxguard-core/policies/default.policy`), compiled
    /// once per process: an embedder verifying many buffers pays for it once.
    pub fn builtin() -> Arc<Policy> {
        static BUILTIN: std::sync::LazyLock<Arc<Policy>> = std::sync::LazyLock::new(|| {
            match Loader::new().load_builtin().policy.clone() {
                Some(policy) => policy,
                // Unreachable: a test checks that the built-in policy loads clean.
                None => Arc::new(Policy::empty(&SourceFile::new(DEFAULT_POLICY_NAME, ""))),
            }
        });
        Arc::clone(&BUILTIN)
    }

    /// Loads a policy file and its `extends` chain, for use: the policy and
    /// its warnings, or every diagnostic when it has errors. `extends` stays
    /// inside the policy's repository ([`Access`]).
    pub fn load(path: &Path) -> Result<(Arc<Policy>, Vec<Diagnostic>), Vec<Diagnostic>> {
        policy_for_use(Some(path), &Access::default())
    }

    /// A policy from text that has no file, named `name` in diagnostics;
    /// `extends` paths are relative to the current directory.
    ///
    /// ```
    /// use ctxguard_core::policy::Policy;
    ///
    /// let (policy, warnings) = Policy::from_text("team.policy", "extends default\nbudget window 64000\n")
    ///     .expect("a usable policy");
    /// assert_eq!(policy.window.as_ref().map(|w| w.value), Some(64000));
    /// assert!(warnings.is_empty());
    ///
    /// // A policy with errors is refused with every diagnostic.
    /// let errors = Policy::from_text("bad.policy", "order a before b\n").err().unwrap_or_default();
    /// assert_eq!(errors[0].code.name(), "unknown-kind");
    /// ```
    pub fn from_text(
        name: &str,
        text: &str,
    ) -> Result<(Arc<Policy>, Vec<Diagnostic>), Vec<Diagnostic>> {
        let mut loader = Loader::new();
        let loaded = loader.load_source(SourceFile::new(name, text), None);
        usable(&loader, &loaded)
    }
}

fn usable(
    loader: &Loader,
    loaded: &Loaded,
) -> Result<(Arc<Policy>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let diagnostics: Vec<Diagnostic> = loader.diagnostics().cloned().collect();
    match &loaded.policy {
        Some(policy) if !diagnostics.iter().any(|d| d.severity == Severity::Error) => {
            Ok((Arc::clone(policy), diagnostics))
        }
        _ => Err(diagnostics),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Key {
    Builtin,
    Path(PathBuf),
}

/// One policy file as loaded: its model when it parsed, and what is wrong with it.
#[derive(Debug)]
pub struct Loaded {
    /// The file's text, when it could be read.
    pub source: Option<Arc<SourceFile>>,
    /// The resolved model, when the file parsed.
    pub policy: Option<Arc<Policy>>,
    /// What is wrong with this file.
    pub diagnostics: Vec<Diagnostic>,
    /// Its `extends` statement's span, and the parent that statement
    /// loaded, when it did.
    pub parent: Option<(Span, Arc<Loaded>)>,
}

impl Loaded {
    /// Whether any of its diagnostics is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Loads policies, each file once, and remembers them in load order (a
/// parent before its child) so their diagnostics are reported once each.
#[derive(Debug, Default)]
pub struct Loader {
    loaded: Vec<(Key, Arc<Loaded>)>,
    in_progress: Vec<(Key, String)>,
    access: Access,
    /// The root `extends` may not leave, for the policy being loaded.
    root: Option<PathBuf>,
}

impl Loader {
    /// A loader that has loaded nothing, under the default [`Access`].
    pub fn new() -> Self {
        Loader::default()
    }

    /// A loader that reads under `access`: its size limit and root.
    pub fn with_access(access: Access) -> Self {
        Loader {
            access,
            ..Loader::default()
        }
    }

    /// Loads a policy file and, first, every policy it extends.
    pub fn load_path(&mut self, path: &Path) -> Arc<Loaded> {
        if self.in_progress.is_empty() {
            self.root = Some(self.access.root_for(path));
        }
        let key = match std::fs::canonicalize(path) {
            Ok(canonical) => Key::Path(canonical),
            Err(_) => Key::Path(path.to_path_buf()),
        };
        if let Some(loaded) = self.get(&key) {
            return loaded;
        }
        let read = input::read(path, &self.access);
        self.load_read(key, path, read)
    }

    /// Loads what was read from `path`, or remembers why it could not be.
    fn load_read(
        &mut self,
        key: Key,
        path: &Path,
        read: Result<Arc<SourceFile>, Box<Unread>>,
    ) -> Arc<Loaded> {
        match read {
            Ok(source) => {
                let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
                self.load(key, source, Some(directory))
            }
            Err(diagnostic) => self.remember(
                key,
                Loaded {
                    source: None,
                    policy: None,
                    diagnostics: vec![Diagnostic::from(*diagnostic)],
                    parent: None,
                },
            ),
        }
    }

    /// Loads a parent the access rule admitted: read through its checked
    /// path, named as the `extends` line wrote it.
    fn load_admitted(&mut self, key: Key, path: &Path, admitted: &Admitted) -> Arc<Loaded> {
        if let Some(loaded) = self.get(&key) {
            return loaded;
        }
        let read = input::read_admitted(admitted, &path.display().to_string(), &self.access);
        self.load_read(key, path, read)
    }

    /// Loads the built-in default policy.
    pub fn load_builtin(&mut self) -> Arc<Loaded> {
        if let Some(loaded) = self.get(&Key::Builtin) {
            return loaded;
        }
        let source = SourceFile::new(DEFAULT_POLICY_NAME, DEFAULT_POLICY);
        self.load(Key::Builtin, source, None)
    }

    /// Loads policy text that has no file (standard input, tests, embedders);
    /// `extends` paths are relative to `directory`.
    pub fn load_source(
        &mut self,
        source: Arc<SourceFile>,
        directory: Option<PathBuf>,
    ) -> Arc<Loaded> {
        let key = Key::Path(PathBuf::from(format!("<source {}>", self.loaded.len())));
        let here = directory.clone().unwrap_or_default().join(source.name());
        self.root = Some(self.access.root_for(&here));
        self.load(key, source, directory)
    }

    /// Every loaded file's diagnostics, parents first, each file once.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.loaded
            .iter()
            .flat_map(|(_, loaded)| &loaded.diagnostics)
    }

    fn get(&self, key: &Key) -> Option<Arc<Loaded>> {
        self.loaded
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, loaded)| Arc::clone(loaded))
    }

    fn remember(&mut self, key: Key, loaded: Loaded) -> Arc<Loaded> {
        let loaded = Arc::new(loaded);
        self.loaded.push((key, Arc::clone(&loaded)));
        loaded
    }

    fn load(
        &mut self,
        key: Key,
        source: Arc<SourceFile>,
        directory: Option<PathBuf>,
    ) -> Arc<Loaded> {
        let (ast, mut diagnostics) = parse(&source);
        let Some(ast) = ast else {
            return self.remember(
                key,
                Loaded {
                    source: Some(source),
                    policy: None,
                    diagnostics,
                    parent: None,
                },
            );
        };
        self.in_progress
            .push((key.clone(), source.name().to_owned()));
        let extends = ast
            .statements
            .iter()
            .find_map(|statement| match &statement.node {
                StatementKind::Extends(parent) => Some((statement.span.clone(), parent)),
                _ => None,
            });
        let parent = match extends {
            None => Ok(None),
            Some((_, parent)) => self
                .parent(&parent.node, directory.as_deref())
                .map_err(|found| {
                    let (diagnostic, label) = *found;
                    diagnostics.push(diagnostic.label(&source, parent.span.clone(), label));
                }),
        };
        self.in_progress.pop();
        let loaded_parent = parent.as_ref().ok().and_then(Clone::clone);
        let parent = match &parent {
            Ok(Some(loaded)) => match &loaded.policy {
                Some(policy) => Parent::Policy(policy),
                None => Parent::Unavailable,
            },
            Ok(None) => Parent::None,
            Err(()) => Parent::Unavailable,
        };
        let (policy, found) = resolve(&ast, parent);
        diagnostics.extend(found);
        let diagnostics = crate::policy::ignore::apply(&source, &ast.statements, diagnostics);
        self.remember(
            key,
            Loaded {
                source: Some(source),
                policy: Some(Arc::new(policy)),
                diagnostics,
                parent: extends.map(|(span, _)| span).zip(loaded_parent),
            },
        )
    }

    /// The parent an `extends` names, or the finding and the label for the
    /// `extends` statement.
    fn parent(
        &mut self,
        parent: &ParentRef,
        directory: Option<&Path>,
    ) -> Result<Option<Arc<Loaded>>, Box<(Diagnostic, String)>> {
        if self.in_progress.len() >= MAX_EXTENDS_DEPTH {
            let name = match parent {
                ParentRef::Builtin => "default".to_owned(),
                ParentRef::Path(relative) => relative.clone(),
            };
            return Err(Box::new(codes::forbidden_parent(
                &name,
                &format!("the `extends` chain is already {MAX_EXTENDS_DEPTH} policies deep"),
            )));
        }
        let (key, path) = match parent {
            ParentRef::Builtin => (Key::Builtin, None),
            ParentRef::Path(relative) => {
                let path = normalize(&directory.unwrap_or(Path::new("")).join(relative));
                let root = self
                    .root
                    .clone()
                    .unwrap_or_else(|| self.access.root_for(&path));
                match self.access.admit(&root, &path) {
                    Ok(admitted) => (Key::Path(admitted.path.clone()), Some((path, admitted))),
                    Err(Refusal::Missing) => {
                        return Err(Box::new(codes::missing_parent(
                            relative,
                            &path.display().to_string(),
                        )))
                    }
                    Err(refusal) => {
                        return Err(Box::new(codes::forbidden_parent(
                            relative,
                            &describe_refusal(&refusal),
                        )))
                    }
                }
            }
        };
        if let Some(position) = self.in_progress.iter().position(|(k, _)| *k == key) {
            let mut chain: Vec<String> = self.in_progress[position..]
                .iter()
                .map(|(_, name)| format!("`{name}`"))
                .collect();
            chain.push(chain[0].clone());
            return Err(Box::new(codes::extends_cycle(&chain)));
        }
        Ok(Some(match path {
            None => self.load_builtin(),
            Some((path, admitted)) => self.load_admitted(key, &path, &admitted),
        }))
    }
}

/// Why a parent is refused, in a user's terms.
fn describe_refusal(refusal: &Refusal) -> String {
    match refusal {
        Refusal::Missing => "it does not exist".to_owned(),
        Refusal::Outside { resolved, .. } => format!(
            "it resolves to `{}`, outside the repository",
            resolved.display()
        ),
        Refusal::Special(kind) => format!("it is {kind}"),
    }
}

/// `a/b/../c` as `a/c`, without touching the file system, so names in
/// diagnostics stay the ones a user would write.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalize;
    use std::path::Path;

    #[test]
    fn normalizes_lexically() {
        assert_eq!(
            normalize(Path::new("policies/examples/../default.policy")),
            Path::new("policies/default.policy")
        );
        assert_eq!(normalize(Path::new("../x/./y")), Path::new("../x/y"));
    }
}

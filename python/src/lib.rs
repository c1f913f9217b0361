//! `ctxguard._ctxguard`: ctxguard's library for Python. Every call reads
//! its inputs, runs the same checks as the command line, and hands back the
//! same report; the GIL is released while ctxguard works, and a panic
//! becomes an exception, never an abort.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use ctxguard::{
    audit::Request as AuditRequest, compact::Options as CompactOptions, compact::Summarizer,
    Access, Budget, Diagnostic as Finding, Format, HumanStyle, Input, InputFormat, JsonDiagnostic,
    Options, Overrides, Policy as CorePolicy, Progress, Report as CoreReport, Subject, Tokenizer,
    Trace,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

create_exception!(
    ctxguard,
    InputError,
    PyValueError,
    "An input could not be used: a trace, plan, session or policy that cannot be read. \
     `diagnostics` holds what the command line would print, with file, line and column."
);

/// A labelled place of a diagnostic.
#[pyclass(frozen, module = "ctxguard", get_all)]
#[derive(Clone)]
struct Label {
    /// The file (`<trace>` or `<plan>` for input that had none).
    file: String,
    /// 1-based line.
    line: usize,
    /// 1-based column, in characters.
    column: usize,
    /// Line where the span ends.
    end_line: usize,
    /// Column where the span ends.
    end_column: usize,
    /// JSON Pointer of the region (`/regions/3`), where there is one.
    pointer: Option<String>,
    /// What the label says.
    message: String,
}

#[pymethods]
impl Label {
    fn __repr__(&self) -> String {
        format!(
            "Label({}:{}:{}, {:?})",
            self.file, self.line, self.column, self.message
        )
    }
}

/// One finding, as `--format json` writes it.
#[pyclass(frozen, module = "ctxguard")]
#[derive(Clone)]
struct Diagnostic {
    /// The stable code (`missing-commitment`); `ctxguard explain CODE`.
    #[pyo3(get)]
    code: String,
    /// `error` or `warning`.
    #[pyo3(get)]
    severity: String,
    /// The message.
    #[pyo3(get)]
    message: String,
    /// The commitment's identity, `kind:key`.
    #[pyo3(get)]
    commitment: Option<String>,
    /// The region's id.
    #[pyo3(get)]
    region: Option<String>,
    /// The file of the primary place.
    #[pyo3(get)]
    file: Option<String>,
    /// 1-based line of the primary place.
    #[pyo3(get)]
    line: Option<usize>,
    /// 1-based column of the primary place, in characters.
    #[pyo3(get)]
    column: Option<usize>,
    /// Where the primary span ends: line.
    #[pyo3(get)]
    end_line: Option<usize>,
    /// Where the primary span ends: column.
    #[pyo3(get)]
    end_column: Option<usize>,
    /// What to do.
    #[pyo3(get)]
    help: Option<String>,
    /// Further facts: a diff, what differs.
    #[pyo3(get)]
    notes: Vec<String>,
    /// Every labelled place, the primary one first.
    #[pyo3(get)]
    labels: Vec<Label>,
    /// The finding itself, drawn for a person only when asked.
    finding: Finding,
}

impl Diagnostic {
    fn new(finding: &Finding) -> Self {
        let json = JsonDiagnostic::new(finding);
        Diagnostic {
            code: json.code,
            severity: json.severity,
            message: json.message,
            commitment: json.commitment,
            region: json.region,
            file: json.file,
            line: json.line,
            column: json.column,
            end_line: json.end_line,
            end_column: json.end_column,
            help: json.help,
            notes: json.notes,
            labels: json
                .labels
                .into_iter()
                .map(|l| Label {
                    file: l.file,
                    line: l.line,
                    column: l.column,
                    end_line: l.end_line,
                    end_column: l.end_column,
                    pointer: l.pointer,
                    message: l.message,
                })
                .collect(),
            finding: finding.clone(),
        }
    }
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        let place = match (&self.file, self.line, self.column) {
            (Some(file), Some(line), Some(column)) => format!(" at {file}:{line}:{column}"),
            (Some(file), _, _) => format!(" in {file}"),
            _ => String::new(),
        };
        format!(
            "Diagnostic({} {}{place}: {:?})",
            self.severity, self.code, self.message
        )
    }

    /// The diagnostic as the command line draws it for a person.
    #[getter]
    fn rendered(&self) -> String {
        // A report of nothing but this finding: no summary line after it.
        let report = CoreReport {
            subject: Subject::Text(String::new()),
            diagnostics: vec![self.finding.clone()],
        };
        rendered(&report, Format::Human)
    }

    fn __str__(&self) -> String {
        self.rendered()
    }
}

/// `value` as Python data: dicts, lists, strings, numbers.
fn python<'py, T: serde::Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A report in `format`, as the command line writes it (80 columns, no
/// colour for `human`).
fn rendered(report: &CoreReport, format: Format) -> String {
    let mut out = Vec::new();
    if ctxguard::render(report, format, &HumanStyle::plain(), &mut out).is_err() {
        return String::new();
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn diagnostics_of(findings: &[Finding]) -> Vec<Diagnostic> {
    findings.iter().map(Diagnostic::new).collect()
}

/// An `InputError` holding `findings`; its text is the report a person
/// would read.
fn input_error(py: Python<'_>, findings: &[Finding]) -> PyErr {
    let report = CoreReport {
        subject: Subject::Verify(None),
        diagnostics: findings.to_vec(),
    };
    let error = InputError::new_err(rendered(&report, Format::Human).trim_end().to_owned());
    let list: Vec<Diagnostic> = diagnostics_of(findings);
    if let Ok(list) = PyList::new(py, list) {
        let _ = error.value(py).setattr("diagnostics", list);
    }
    error
}

/// A team policy: its kinds, hints, order rules and budgets, with the
/// findings of linting it. A policy with errors is kept (its `diagnostics`
/// say why) but cannot decide a verdict.
#[pyclass(frozen, module = "ctxguard")]
struct Policy {
    policy: Option<Arc<CorePolicy>>,
    findings: Vec<Finding>,
    name: String,
}

#[pymethods]
impl Policy {
    /// Reads a policy file and its `extends` chain.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: PathBuf) -> Self {
        let name = path.display().to_string();
        py.detach(|| Policy::loaded(name, CorePolicy::load(&path)))
    }

    /// A policy from text, named `name` in diagnostics.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<policy>"))]
    fn from_str(py: Python<'_>, text: &str, name: &str) -> Self {
        py.detach(|| Policy::loaded(name.to_owned(), CorePolicy::from_text(name, text)))
    }

    /// The built-in default policy.
    #[staticmethod]
    fn default() -> Self {
        Policy {
            policy: Some(CorePolicy::builtin()),
            findings: Vec::new(),
            name: ctxguard::DEFAULT_POLICY_NAME.to_owned(),
        }
    }

    /// Whether the policy can decide a verdict: it has no errors.
    #[getter]
    fn usable(&self) -> bool {
        self.policy.is_some()
    }

    /// What linting the policy found (`ctxguard check`), errors and warnings.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        diagnostics_of(&self.findings)
    }

    /// The name diagnostics give the policy.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The context window `budget window` sets, in tokens, if it does.
    #[getter]
    fn window(&self) -> Option<u64> {
        self.policy
            .as_ref()
            .and_then(|p| p.window.as_ref().map(|w| w.value))
    }

    fn __repr__(&self) -> String {
        let errors = self
            .findings
            .iter()
            .filter(|f| f.severity == ctxguard::Severity::Error)
            .count();
        format!(
            "Policy({:?}, usable={}, {} diagnostics, {errors} errors)",
            self.name,
            self.usable(),
            self.findings.len()
        )
    }
}

impl Policy {
    fn loaded(name: String, loaded: Result<(Arc<CorePolicy>, Vec<Finding>), Vec<Finding>>) -> Self {
        match loaded {
            Ok((policy, findings)) => Policy {
                policy: Some(policy),
                findings,
                name,
            },
            Err(findings) => Policy {
                policy: None,
                findings,
                name,
            },
        }
    }

    /// The policy a call runs under, with its warnings; errors raise.
    fn for_use(
        py: Python<'_>,
        policy: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Arc<CorePolicy>, Vec<Finding>)> {
        let owned;
        let policy: &Policy = match policy {
            None => return Ok((CorePolicy::builtin(), Vec::new())),
            Some(given) => match given.cast::<Policy>() {
                Ok(policy) => {
                    owned = policy.clone();
                    owned.get()
                }
                Err(_) => {
                    let path: PathBuf = given.extract().map_err(|_| {
                        PyTypeError::new_err("policy must be a ctxguard.Policy or a path")
                    })?;
                    let loaded = Policy::from_file(py, path);
                    return match loaded.policy {
                        Some(policy) => Ok((policy, loaded.findings)),
                        None => Err(input_error(py, &loaded.findings)),
                    };
                }
            },
        };
        match &policy.policy {
            Some(core) => Ok((Arc::clone(core), policy.findings.clone())),
            None => Err(input_error(py, &policy.findings)),
        }
    }
}

/// A trace or plan as Python gives it: a path, JSON/YAML text, a dict of
/// the document, or a list of its regions.
enum Given {
    Path(PathBuf),
    Input(Input),
    /// A dict or list, laid out as JSON only once the GIL is released.
    Value(String, serde_json::Value),
}

impl Given {
    /// `value` read as the document `role` (`trace` or `plan`). A `str`
    /// holding a line break or starting with `{` or `[` is text; any other
    /// `str` and any `os.PathLike` is a path. A dict or list is taken as it
    /// is, laid out as JSON named `<role>` so diagnostics can point at a
    /// line of it.
    fn from_py(value: &Bound<'_, PyAny>, role: &str) -> PyResult<Given> {
        let name = format!("<{role}>");
        if let Ok(text) = value.cast::<PyString>() {
            let text: String = text.extract()?;
            let text = text.as_str();
            let trimmed = text.trim_start();
            if text.contains('\n') || trimmed.starts_with('{') || trimmed.starts_with('[') {
                let format = InputFormat::detect(std::path::Path::new(&name), text);
                return Ok(Given::Input(Input::text(&name, format, text)));
            }
            return Ok(Given::Path(PathBuf::from(text)));
        }
        if value.is_instance_of::<PyDict>() || value.is_instance_of::<PyList>() {
            let mut document: serde_json::Value = pythonize::depythonize(value)
                .map_err(|e| PyTypeError::new_err(format!("the {role} is not plain data: {e}")))?;
            if document.is_array() {
                document = serde_json::json!({"version": 1, "regions": document});
            }
            return Ok(Given::Value(name, document));
        }
        match value.extract::<PathBuf>() {
            Ok(path) => Ok(Given::Path(path)),
            Err(_) => Err(PyTypeError::new_err(format!(
                "the {role} must be a path, JSON or YAML text, a dict or a list of regions"
            ))),
        }
    }

    fn open(self, access: &Access) -> Result<Input, Box<Finding>> {
        match self {
            Given::Path(path) => Input::open(&path, None, access),
            Given::Input(input) => Ok(input),
            Given::Value(name, document) => Ok(Input::value(&name, &document)),
        }
    }
}

/// Runs `work` without the GIL; a panic in it is a `RuntimeError`.
fn detached<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(work)))
        .map_err(|panic| {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            PyRuntimeError::new_err(format!("ctxguard failed inside: {what}"))
        })
}

fn tokenizer(name: Option<&str>) -> PyResult<Option<Tokenizer>> {
    name.map(|name| {
        Tokenizer::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown tokenizer `{name}`: expected `o200k_base`, `cl100k_base` or `approx`"
            ))
        })
    })
    .transpose()
}

fn runtime(name: Option<&str>) -> PyResult<Option<ctxguard::Runtime>> {
    name.map(|name| {
        let read = ctxguard::import::READ;
        read.into_iter()
            .find(|runtime| runtime.arg() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = read.iter().map(|r| r.arg()).collect();
                PyValueError::new_err(format!(
                    "ctxguard reads no sessions of a runtime `{name}`: name one of {}",
                    names.join(", ")
                ))
            })
    })
    .transpose()
}

/// A verdict, a plan or an audit, with its findings; render it as the
/// command line would.
#[pyclass(frozen, module = "ctxguard")]
struct Report {
    report: CoreReport,
}

#[pymethods]
impl Report {
    /// `compact`, `reject` or `escalate`; `None` where there is no verdict.
    #[getter]
    fn verdict(&self) -> Option<&'static str> {
        match &self.report.subject {
            Subject::Verify(Some((verdict, _))) => Some(verdict.name()),
            _ => None,
        }
    }

    /// Every finding, in report order.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        diagnostics_of(&self.report.diagnostics)
    }

    /// Token counts, budget and warnings counted: the JSON report's `stats`.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match &self.report.subject {
            Subject::Verify(Some((_, stats))) => python(py, stats).map(Some),
            _ => Ok(None),
        }
    }

    /// The exit status the command line would give: 0 compact, 1 reject,
    /// 3 escalate, 2 unusable input.
    #[getter]
    fn exit_code(&self) -> i32 {
        self.report.status().code()
    }

    /// The report as `--format json` writes it.
    fn to_json(&self) -> String {
        rendered(&self.report, Format::Json)
    }

    /// The report as SARIF 2.1.0 (`--format sarif`).
    fn to_sarif(&self) -> String {
        rendered(&self.report, Format::Sarif)
    }

    /// The report as GitHub workflow annotations (`--format github`).
    fn to_github(&self) -> String {
        rendered(&self.report, Format::Github)
    }

    /// The report as a person reads it: plain text, 80 columns.
    fn render(&self) -> String {
        rendered(&self.report, Format::Human)
    }

    /// Each audited compaction (`ctxguard audit`'s events), for an audit.
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match &self.report.subject {
            Subject::Audit { events, .. } => python(py, events).map(Some),
            _ => Ok(None),
        }
    }

    /// The sessions of an audit summed as `audit --fleet-report` sums
    /// them: a [`Fleet`] to merge with others.
    fn fleet(&self) -> Option<Fleet> {
        match &self.report.subject {
            Subject::Audit {
                fleet: Some(fleet), ..
            } => Some(Fleet {
                fleet: std::sync::Mutex::new((**fleet).clone()),
            }),
            _ => None,
        }
    }

    fn __repr__(&self) -> String {
        let tally = ctxguard::Tally::of(&self.report.diagnostics);
        let verdict = self
            .verdict()
            .map_or("None".to_owned(), |verdict| format!("'{verdict}'"));
        format!(
            "Report(verdict={verdict}, errors={}, warnings={})",
            tally.errors, tally.warnings
        )
    }
}

/// What compaction did across a fleet of sessions, summed as
/// `ctxguard audit DIR --fleet-report FILE.json` sums it. Fleets merge in
/// any order into the fleet of all their sessions, so the pieces of a
/// distributed run add up to what the command writes for the whole.
#[pyclass(module = "ctxguard")]
struct Fleet {
    fleet: std::sync::Mutex<ctxguard::fleet::Fleet>,
}

impl Fleet {
    fn inner(&self) -> PyResult<std::sync::MutexGuard<'_, ctxguard::fleet::Fleet>> {
        self.fleet
            .lock()
            .map_err(|_| PyValueError::new_err("the fleet was poisoned by an earlier panic"))
    }
}

#[pymethods]
impl Fleet {
    /// A fleet of no session.
    #[new]
    fn new() -> Self {
        Fleet {
            fleet: std::sync::Mutex::new(ctxguard::fleet::Fleet::new(false)),
        }
    }

    /// The fleet a summary (`to_json()`, or a `.json` fleet report) was
    /// made from; a redacted summary cannot be merged.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Fleet> {
        let summary: ctxguard::fleet::Summary = serde_json::from_str(text)
            .map_err(|e| PyValueError::new_err(format!("not a fleet summary: {e}")))?;
        let fleet = ctxguard::fleet::Fleet::from_summary(summary).ok_or_else(|| {
            PyValueError::new_err("a redacted summary, or one of another format, cannot be merged")
        })?;
        Ok(Fleet {
            fleet: std::sync::Mutex::new(fleet),
        })
    }

    /// Adds every session of `other`.
    fn merge(&self, other: &Fleet) -> PyResult<()> {
        let other = other.inner()?.clone();
        self.inner()?.merge(other);
        Ok(())
    }

    /// The summary as JSON, as `--fleet-report FILE.json` writes it;
    /// `redact` leaves out every file name.
    #[pyo3(signature = (*, redact = false))]
    fn to_json(&self, redact: bool) -> PyResult<String> {
        serde_json::to_string_pretty(&self.inner()?.summary(redact))
            .map(|json| json + "\n")
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The summary as Python objects.
    #[pyo3(signature = (*, redact = false))]
    fn summary<'py>(&self, py: Python<'py>, redact: bool) -> PyResult<Bound<'py, PyAny>> {
        let summary = self.inner()?.summary(redact);
        python(py, &summary)
    }

    /// The fleet report page (`--fleet-report FILE.html`), without links to
    /// per-session pages.
    #[pyo3(signature = (*, redact = false))]
    fn to_html(&self, redact: bool) -> PyResult<String> {
        Ok(ctxguard::fleet::page(&self.inner()?.summary(redact), &[]))
    }

    fn __repr__(&self) -> PyResult<String> {
        let summary = self.inner()?.summary(false);
        Ok(format!(
            "Fleet(sessions={}, compactions={}, commitments={})",
            summary.sessions, summary.compactions, summary.commitments
        ))
    }
}

/// Verifies a compaction plan against the trace it compacts.
#[pyfunction]
#[pyo3(signature = (trace, plan, policy = None, *, budget = None, tokenizer = None, recount = false, all_warnings = false, deny_warnings = false))]
#[allow(clippy::too_many_arguments)]
fn verify(
    py: Python<'_>,
    trace: &Bound<'_, PyAny>,
    plan: &Bound<'_, PyAny>,
    policy: Option<&Bound<'_, PyAny>>,
    budget: Option<u64>,
    tokenizer: Option<&str>,
    recount: bool,
    all_warnings: bool,
    deny_warnings: bool,
) -> PyResult<Report> {
    let (policy, policy_warnings) = Policy::for_use(py, policy)?;
    let trace = Given::from_py(trace, "trace")?;
    let plan = Given::from_py(plan, "plan")?;
    let overrides =
        Overrides::new(&[], &[], &[], deny_warnings).map_err(|e| PyValueError::new_err(e.0))?;
    let options = Options {
        budget: Budget {
            window: budget,
            tokenizer: self::tokenizer(tokenizer)?,
            recount,
        },
        warning_limit: (!all_warnings).then_some(ctxguard::WARNING_LIMIT),
        overrides,
    };
    let report = detached(py, move || {
        let access = Access::default();
        let inputs = (trace.open(&access), plan.open(&access));
        match inputs {
            (Ok(trace), Ok(plan)) => Ok(ctxguard::verify_inputs(
                &policy,
                policy_warnings,
                &trace,
                &plan,
                &options,
            )),
            (trace, plan) => Err([trace.err(), plan.err()]
                .into_iter()
                .flatten()
                .map(|d| *d)
                .collect::<Vec<_>>()),
        }
    })?;
    match report {
        Ok(report) if matches!(report.subject, Subject::Verify(None)) => {
            Err(input_error(py, &report.diagnostics))
        }
        Ok(report) => Ok(Report { report }),
        Err(findings) => Err(input_error(py, &findings)),
    }
}

/// What the reference compactor made of a trace.
#[pyclass(frozen, module = "ctxguard")]
struct Planned {
    outcome: &'static str,
    plan_json: Option<String>,
    findings: Vec<Finding>,
}

#[pymethods]
impl Planned {
    /// `compact` (a plan that verifies), `escalate` (no plan fits the
    /// budget: a person decides) or `failed` (the summarizer failed, or the
    /// trace cannot be compacted safely).
    #[getter]
    fn outcome(&self) -> &'static str {
        self.outcome
    }

    /// The plan as a dict (`version`, `regions`), when there is one.
    #[getter]
    fn plan<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(text) = &self.plan_json else {
            return Ok(None);
        };
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
        python(py, &value).map(Some)
    }

    /// The plan as JSON text, when there is one.
    #[getter]
    fn plan_json(&self) -> Option<String> {
        self.plan_json.clone()
    }

    /// Why there is no plan, and the warnings of the one there is.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        diagnostics_of(&self.findings)
    }

    fn __repr__(&self) -> String {
        format!(
            "Planned(outcome='{}', {} diagnostics)",
            self.outcome,
            self.findings.len()
        )
    }
}

/// Compacts a trace with the reference compactor: commitments kept byte
/// for byte, each run of narrative summarized by `summarizer` (a callable
/// taking the run's text and returning its summary; `None`: the first
/// sentence of each region), the plan verified before it is returned.
#[pyfunction]
#[pyo3(signature = (trace, policy = None, *, summarizer = None, budget = None, tokenizer = None))]
fn plan(
    py: Python<'_>,
    trace: &Bound<'_, PyAny>,
    policy: Option<&Bound<'_, PyAny>>,
    summarizer: Option<Bound<'_, PyAny>>,
    budget: Option<u64>,
    tokenizer: Option<&str>,
) -> PyResult<Planned> {
    let (policy, mut warnings) = Policy::for_use(py, policy)?;
    let trace = Given::from_py(trace, "trace")?;
    let summarizer = match summarizer {
        None => None,
        Some(callable) if callable.is_callable() => {
            let name = callable
                .getattr("__qualname__")
                .or_else(|_| callable.getattr("__name__"))
                .and_then(|n| n.extract::<String>())
                .unwrap_or_else(|_| "a Python callable".to_owned());
            let callable: Py<PyAny> = callable.unbind();
            let call = move |text: &str| -> Result<String, String> {
                Python::attach(|py| {
                    callable
                        .call1(py, (text,))
                        .and_then(|summary| summary.extract::<String>(py))
                        .map_err(|error| error.to_string())
                })
            };
            Some(Summarizer::Function {
                name,
                call: Arc::new(call),
            })
        }
        Some(_) => return Err(PyTypeError::new_err("summarizer must be callable")),
    };
    let options = CompactOptions {
        summarizer,
        budget: Budget {
            window: budget,
            tokenizer: self::tokenizer(tokenizer)?,
            recount: false,
        },
        warning_limit: None,
    };
    let outcome = detached(py, move || {
        let input = trace.open(&Access::default()).map_err(|d| vec![*d])?;
        let trace = Trace::read(&input).map_err(|d| vec![*d])?;
        Ok::<_, Vec<Finding>>(ctxguard::compact(&policy, &trace, &options))
    })?;
    let outcome = outcome.map_err(|findings| input_error(py, &findings))?;
    Ok(match outcome {
        ctxguard::compact::Outcome::Plan(plan, found, _) => {
            warnings.extend(found);
            let mut out = Vec::new();
            plan.write(InputFormat::Json, &mut out)
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            Planned {
                outcome: "compact",
                plan_json: Some(String::from_utf8_lossy(&out).into_owned()),
                findings: warnings,
            }
        }
        ctxguard::compact::Outcome::Escalate(findings) => Planned {
            outcome: "escalate",
            plan_json: None,
            findings,
        },
        ctxguard::compact::Outcome::Failed(findings) => Planned {
            outcome: "failed",
            plan_json: None,
            findings,
        },
    })
}

/// Audits recorded sessions (files, or folders searched for them): what
/// each compaction lost, altered or invented. Returns the report; its
/// `to_json()` holds every event.
#[pyfunction]
#[pyo3(signature = (*paths, policy = None, runtime = None))]
fn audit(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    policy: Option<PathBuf>,
    runtime: Option<&str>,
) -> PyResult<Report> {
    let from = self::runtime(runtime)?;
    let request = AuditRequest {
        paths,
        from,
        policy,
        access: Access::default(),
        fleet: true,
        ..AuditRequest::default()
    };
    let report = detached(py, move || {
        ctxguard::audit::audit_paths(&request, &|_| {}, &Progress::hidden())
    })?;
    Ok(Report { report })
}

/// Reads one recorded session and gives each compaction as ctxguard sees
/// it: `{"compaction": {...}, "trace": {...}, "plan": {...}}`, the trace
/// and plan as `ctxguard import` writes them.
#[pyfunction]
#[pyo3(signature = (path, policy = None, runtime = None))]
fn import_session<'py>(
    py: Python<'py>,
    path: PathBuf,
    policy: Option<&Bound<'py, PyAny>>,
    runtime: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let (policy, _) = Policy::for_use(py, policy)?;
    let from = self::runtime(runtime)?;
    let imported = detached(py, move || {
        let file = ctxguard::read_source(&path, &Access::default()).map_err(|d| vec![*d])?;
        let session = ctxguard::import::import(&file, from).map_err(|d| vec![*d])?;
        let mut events = Vec::new();
        for (compaction, trace, plan, _) in ctxguard::import::compactions(&policy, &session) {
            // The documents `import` writes are these values, serialized.
            let (Ok(trace), Ok(plan)) = (serde_json::to_value(&trace), serde_json::to_value(&plan))
            else {
                continue;
            };
            let compaction = serde_json::to_value(compaction).unwrap_or_default();
            events.push(serde_json::json!({
                "compaction": compaction,
                "trace": trace,
                "plan": plan,
            }));
        }
        Ok::<_, Vec<Finding>>(events)
    })?;
    let events = imported.map_err(|findings| input_error(py, &findings))?;
    let list = PyList::empty(py);
    for event in events {
        list.append(python(py, &event)?)?;
    }
    Ok(list)
}

#[pymodule]
fn _ctxguard(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add_class::<Policy>()?;
    m.add_class::<Report>()?;
    m.add_class::<Fleet>()?;
    m.add_class::<Planned>()?;
    m.add_class::<Diagnostic>()?;
    m.add_class::<Label>()?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(audit, m)?)?;
    m.add_function(wrap_pyfunction!(import_session, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

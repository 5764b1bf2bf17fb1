"""aggregate(): one run of ``consensus fit`` on labels held in Python."""

import csv
import json
import os
import re
import subprocess
import tempfile

from ._binary import find_binary
from ._files import _write_labels, _write_gold, _write_workers, _clean, _remember

__all__ = ["aggregate", "capabilities", "check_options", "Result", "ConsensusError", "ConsensusInputError", "DEFAULT_MODEL", "OPTIONS"]

#: The model that ``aggregate`` fits when none is named: the CLI's default.
DEFAULT_MODEL = "vb-ds"


#: The keyword options of ``aggregate``, each with the ``consensus fit``
#: flag it becomes and the type of its value. ``None`` (and ``False`` for a
#: switch) leaves the flag out, so that the CLI's default applies.
OPTIONS = {
    "seed": ("--seed", int),
    "max_iter": ("--max-iter", int),
    "strict": ("--strict", bool),
    "q_prior": ("--q-prior", float),
    "staged": ("--staged", bool),
    "threads": ("--threads", int),
    "func_tol": ("--func-tol", float),
    "grad_tol": ("--grad-tol", float),
    "ridge": ("--ridge", float),
    "glad_prior": ("--glad-prior", float),
    "solver": ("--solver", str),
    "auto_models": ("--auto-models", list),
    "auto_criterion": ("--auto-criterion", str),
    "max_memory": ("--max-memory", str),
    "random_state": ("--random-state", int),
    "tol": ("--tol", float),
    "calibrate_gold": ("--calibrate-gold", bool),
}

# The capabilities of every model, as ``consensus models --format json``
# lists them, by the binary's path and modification time.
_CAPABILITIES = {}


def capabilities(binary=None):
    """The models of the ``consensus`` binary with their capabilities, as
    ``consensus models --format json`` lists them: a dict with ``default``
    (the default model's name), ``models`` (a dict from every model's name
    to its capabilities: ``worker_params``, ``task_params``, ``answer``,
    ``both``, ``train_gold``, ``needs_gold``, ``init_workers``, ``skills``,
    ``priors``, ``settings``, ``min_classes``, ``max_classes``, ...) and
    ``auto`` (``--model auto`` with its default ``candidates``). The answer
    is read once per binary."""
    exe = find_binary(binary)
    key = (exe, os.stat(exe).st_mtime_ns)
    if key not in _CAPABILITIES:
        cmd = [exe, "models", "--format", "json"]
        proc = _run(cmd, stdout=True)
        try:
            listed = json.loads(proc.stdout) if proc.returncode == 0 else None
        except ValueError:
            listed = None
        if not isinstance(listed, dict) or not isinstance(listed.get("models"), list):
            raise ConsensusError("the consensus binary did not list its models' capabilities (consensus models "
                                 "--format json exited with status %d); is binary= or CONSENSUS_BIN the consensus "
                                 "program, of this package's version?" % proc.returncode,
                                 proc.returncode, proc.stderr, cmd)
        _CAPABILITIES[key] = dict(listed, models={m["name"]: m for m in listed["models"]})
    return _CAPABILITIES[key]


def _candidates(caps, model, auto_models):
    """The capabilities of the models a fit of model may fit: the model's,
    or with ``auto`` those of its candidates; None for a name the binary
    does not list (the CLI's error then says so)."""
    if model == "auto":
        names = caps["auto"]["candidates"]
        if auto_models is not None:
            names = auto_models.split(",") if isinstance(auto_models, str) else list(auto_models)
        names = [n.strip() for n in names]
    else:
        names = [model]
    if not all(n in caps["models"] for n in names):
        return None
    return [caps["models"][n] for n in names]


class ConsensusError(RuntimeError):
    """``consensus fit`` failed.

    ``str(error)`` is the CLI's one-line message. The attributes hold the
    rest: ``returncode`` (1 failure, 2 bad usage or input, 130 interrupted),
    ``stderr`` (everything the CLI wrote there) and ``command`` (the argument
    list that was run).
    """

    def __init__(self, message, returncode=None, stderr="", command=None):
        super().__init__(message)
        self.message = message
        self.returncode = returncode
        self.stderr = stderr
        self.command = command


class ConsensusInputError(ConsensusError, ValueError):
    """``consensus fit`` refused its input or its arguments (exit status 2):
    a ConsensusError and, as Crowd-Kit raises for bad input, a ValueError."""


def _error(message, returncode, stderr, command):
    """The exception for a failed run of the CLI."""
    kind = ConsensusInputError if returncode == 2 else ConsensusError
    return kind(message, returncode, stderr, command)


class Result:
    """The outcome of one fit.

    Attributes:
        model: the model that was fitted (for ``model="auto"``, the one that
            was chosen).
        requested_model: the model that was asked for.
        classes: the classes in the CLI's order (numeric if every label is a
            number, else by text), as the values found in the input.
        class_texts: the classes as the CLI names them (the text of each
            value, white space trimmed), which the worker table's column
            names use (``p[<true>,<observed>]`` for Dawid-Skene).
        labels: a dict from task to its consensus label.
        workers: a list of dicts, one per worker, with the keys of
            ``worker_columns`` (``worker``, ``labels``, ``skill`` and the
            model's own parameters), or ``None`` for a model without worker
            parameters (``worker_params`` false in ``capabilities()``).
        worker_columns: the column names of ``workers``, in the CLI's order.
        tasks: for a model with per-task parameters (``task_params`` in
            ``capabilities()``: the GLAD models), a list of dicts with keys
            ``task``, ``labels`` and ``difficulty``; else ``None``.
        log: what the CLI wrote to standard error (the fit's summary:
            iterations, log-likelihood, stopping reason, a fitted class prior).
        summary: the CLI's summary of the fit as data (``consensus fit
            --summary``): a dict with ``model``, ``tasks``, ``workers``,
            ``labels``, ``classes``, ``converged`` and, for a fit by a
            solver, ``solver``, ``iterations``, ``status`` and
            ``log_likelihood``.

    With pandas installed, ``labels_``, ``probas_``, ``workers_`` and
    ``tasks_`` give the same data in Crowd-Kit's shapes.
    """

    def __init__(self, model, requested_model, classes, class_texts, task_ids, prob_rows, labels,
                 workers, worker_columns, tasks, log, dist_rows=None, summary=None):
        self.model = model
        self.requested_model = requested_model
        self.classes = classes
        self.class_texts = class_texts
        self._task_ids = task_ids
        self._prob_rows = prob_rows
        self._dist_rows = dist_rows
        self.labels = labels
        self._probas = None
        self.workers = workers
        self.worker_columns = worker_columns
        self.tasks = tasks
        self.log = log
        self.summary = summary

    def __repr__(self):
        return "<Result model=%r: %d tasks, %d classes, %s workers>" % (
            self.model, len(self._task_ids), len(self.classes),
            "no" if self.workers is None else len(self.workers))

    @property
    def probas(self):
        """A dict from task to a dict from class to probability (built on
        first use)."""
        if self._probas is None:
            self._probas = {t: dict(zip(self.classes, row)) for t, row in zip(self._task_ids, self._prob_rows)}
        return self._probas

    @property
    def labels_(self):
        """The consensus labels as a pandas Series indexed by task, named
        ``agg_label`` (Crowd-Kit's ``fit_predict``)."""
        pd = _pandas()
        index = pd.Index(self._task_ids, name="task")
        return pd.Series([self.labels[t] for t in self._task_ids], index=index, name="agg_label")

    @property
    def probas_(self):
        """The consensus probabilities as a pandas DataFrame, tasks by
        classes (Crowd-Kit's ``fit_predict_proba``): for the default and the
        LA models the probability that each class is the true class."""
        pd = _pandas()
        frame = pd.DataFrame(self._prob_rows, index=pd.Index(self._task_ids, name="task"),
                             columns=pd.Index(self.classes, name="label"))
        return frame

    @property
    def distributions_(self):
        """The label distributions q_j as a pandas DataFrame, tasks by
        classes, for the models that give them beside the true class's
        probabilities (the default, vb-ds, and vb-onecoin, vb-glad); else
        ``None``. ``probas_`` holds the true class's probabilities."""
        if self._dist_rows is None:
            return None
        pd = _pandas()
        return pd.DataFrame(self._dist_rows, index=pd.Index(self._task_ids, name="task"),
                            columns=pd.Index(self.classes, name="label"))

    @property
    def workers_(self):
        """The worker table as a pandas DataFrame indexed by worker, or
        ``None`` for a model without worker parameters."""
        if self.workers is None:
            return None
        pd = _pandas()
        frame = pd.DataFrame(self.workers, columns=self.worker_columns)
        return frame.set_index("worker")

    @property
    def tasks_(self):
        """GLAD's task table as a pandas DataFrame indexed by task, or
        ``None`` for the other models."""
        if self.tasks is None:
            return None
        pd = _pandas()
        return pd.DataFrame(self.tasks, columns=["task", "labels", "difficulty"]).set_index("task")


def _pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError("this needs pandas (pip install pandas); without it use aggregate() and "
                          "Result.labels, .probas, .workers and .tasks, which are plain dicts and lists") from None
    return pandas


def aggregate(labels, model=DEFAULT_MODEL, *, binary=None, classes=None, workers=True, train_gold=None,
              init_workers=None, fix_workers=False, skills=None, missing_skill=None,
              task_column="task", worker_column="worker", label_column="label", **options):
    """Fit a consensus model to crowdsourced labels with ``consensus fit``.

    Args:
        labels: a pandas DataFrame with the columns named by ``task_column``,
            ``worker_column`` and ``label_column``, or any iterable of
            (task, worker, label) tuples. Values may be of any type whose
            ``str()`` identifies them (str, int, float, ...); the results use
            the values as given. A missing value (None, NaN) or one that is
            empty after trimming white space is refused, as the CLI refuses
            it.
        model: a model name of ``consensus models``, or ``"auto"``.
        binary: the path of the ``consensus`` executable (default: the
            environment variable CONSENSUS_BIN, else ``consensus`` on PATH).
        classes: the classes in order, as label values (``--classes``); labels
            outside them are refused; classes nobody chose get a column.
        workers: whether to read the fitted worker parameters (``--workers``).
        train_gold: known classes of some tasks (``--train-gold``): a dict
            or pandas Series from task to label, or an iterable of (task,
            label) pairs. The la-*, da-* and vb-* models (the default
            included) clamp those tasks to their class during the fit;
            gmv needs them to weigh the
            workers; the CLI refuses them for the other models.
        init_workers: worker parameters to start the fit from
            (``--init-workers``): an earlier ``Result`` of the same noise
            model, its ``workers`` (dicts with a "worker" key) or its
            ``workers_`` DataFrame. The la-*, da-*, hda-* and vb-* models
            (the default included) take them; workers not listed start from
            the model's initialisation.
        fix_workers: with ``init_workers``, hold those workers at the given
            parameters and fit only the other workers and the tasks
            (``--fix-workers``): new tasks aggregated with workers fitted
            before.
        skills: with ``"mv"``, a weight for every worker's vote (a dict or
            pandas Series from worker to a number at least 0; ``--skills``),
            as Crowd-Kit's ``MajorityVote.fit(data, skills)``.
        missing_skill: with ``skills``, what a worker without one gets:
            ``"error"`` (the default), ``"ignore"`` (its labels are left
            out) or a number (``--missing-skill``). Empty ``skills`` raise
            ValueError, but with a number, which weighs every vote alike:
            the plain vote.
        **options: the options of ``OPTIONS`` (``seed``, ``max_iter``,
            ``strict``, ``q_prior``, ``threads``, ...), passed to the CLI as
            the flag of the same name with dashes.

    Returns:
        Result

    Raises:
        TypeError: an unknown option or a value of the wrong type.
        ValueError: a missing, empty or ambiguous value in the labels (the
            message names the row).
        ConsensusError: the CLI failed; the message is its one-line message.
        BinaryNotFoundError: no ``consensus`` executable was found.
    """
    args = _option_args(options)
    if not isinstance(fix_workers, bool):
        raise TypeError("fix_workers must be True or False, not %r" % (fix_workers,))
    if fix_workers and init_workers is None:
        raise ValueError("fix_workers=True needs init_workers=, the parameters of the workers to hold")
    exe = find_binary(binary)
    back_task, back_worker, back_label = {}, {}, {}
    class_text = None
    if classes is not None:
        class_text = []
        for c in classes:
            try:
                text = _clean(c, "class")
                if "," in text:
                    raise ValueError("class %r contains a comma, which the CLI's --classes cannot take" % (c,))
                _remember(back_label, text, c, "class")
            except ValueError as e:
                raise ValueError("classes=: %s" % e) from None
            class_text.append(text)

    with tempfile.TemporaryDirectory(prefix="consensus-crowd-") as tmp:
        in_path = os.path.join(tmp, "labels.csv")
        out_path = os.path.join(tmp, "consensus.csv")
        workers_path = os.path.join(tmp, "workers.csv")
        tasks_path = os.path.join(tmp, "tasks.csv")
        n, describe, multiline = _write_labels(in_path, labels, task_column, worker_column, label_column,
                                               back_task, back_worker, back_label)
        if n == 0:
            raise ValueError("labels: no rows")
        cmd = [exe, "fit", "--input", in_path, "--output", out_path, "--model", model]
        if train_gold is not None:
            gold_path = os.path.join(tmp, "train-gold.csv")
            _write_gold(gold_path, train_gold, back_task, back_label)
            cmd += ["--train-gold", gold_path]
        if skills is not None:
            pairs = list(skills.items() if hasattr(skills, "items") else skills)
            if not pairs:
                if missing_skill is None or missing_skill in ("error", "ignore"):
                    raise ValueError("skills: empty: no worker has a skill, so %s; give the workers of the labels "
                                     "skills, or missing_skill=NUMBER" % (
                                         "missing_skill='ignore' would leave out every label"
                                         if missing_skill == "ignore" else "every label lacks one"))
                # every worker gets missing_skill: equal weights, the plain vote
                skills, missing_skill = None, None
        if skills is not None:
            skills_path = os.path.join(tmp, "skills.csv")
            _write_workers(skills_path, [{"worker": w, "skill": v} for w, v in pairs], "skills")
            cmd += ["--skills", skills_path]
        if missing_skill is not None:
            cmd += ["--missing-skill", missing_skill if isinstance(missing_skill, str) else repr(float(missing_skill))]
        if init_workers is not None:
            init_path = os.path.join(tmp, "init-workers.csv")
            given = init_workers
            if isinstance(given, Result):
                if given.workers is None:
                    raise ValueError("init_workers: the Result has no worker table (a model without worker "
                                     "parameters, or fitted with workers=False)")
                given = given.workers
            _write_workers(init_path, given, "init_workers")
            cmd += ["--init-workers", init_path]
            if fix_workers:
                cmd += ["--fix-workers"]
        if class_text is not None:
            cmd += ["--classes", ",".join(class_text)]
        # What the fit reports, as the binary's capabilities say: worker
        # parameters when every model it may fit has them (or skills weigh
        # the votes), per-task parameters (GLAD's difficulty) likewise.
        fits = _candidates(capabilities(exe), model, options.get("auto_models"))
        want_workers = workers and (skills is not None or fits is not None and all(c["worker_params"] for c in fits))
        want_tasks = fits is not None and all(c["task_params"] for c in fits)
        if want_workers:
            cmd += ["--workers", workers_path]
        if want_tasks:
            cmd += ["--tasks", tasks_path]
        summary_path = os.path.join(tmp, "summary.json")
        cmd += ["--summary", summary_path]
        cmd += args
        proc = _run(cmd)
        if proc.returncode != 0:
            message = _locate(_message(proc.stderr, proc.returncode), in_path, describe, multiline)
            if train_gold is not None:
                message = message.replace(gold_path, "train_gold")
            if init_workers is not None:
                message = message.replace(init_path, "init_workers")
            if skills is not None:
                message = message.replace(skills_path, "skills")
            raise _error(message, proc.returncode, proc.stderr, cmd)

        with _open_output(summary_path) as f:
            try:
                summary = json.load(f)
            except ValueError:  # cut short or not JSON
                summary = None
        if not isinstance(summary, dict) or not isinstance(summary.get("model"), str):
            raise ConsensusError("the consensus binary exited without an error but wrote a summary that is not "
                                 "its JSON; is binary= or CONSENSUS_BIN the consensus program, of this package's "
                                 "version?", proc.returncode, proc.stderr, cmd)
        fitted = summary["model"]
        class_texts, task_ids, prob_rows, dist_rows, agg = _read_consensus(out_path, back_task)
        class_names = [_lookup(back_label, c, "class", out_path) for c in class_texts]
        agg = {t: _lookup(back_label, c, "label", out_path) for t, c in agg.items()}
        worker_rows, worker_columns = None, None
        if want_workers and os.path.exists(workers_path):
            worker_columns, worker_rows = _read_table(workers_path, "worker", back_worker)
        task_rows = None
        if want_tasks:
            _, task_rows = _read_table(tasks_path, "task", back_task)
    return Result(fitted, model, class_names, class_texts, task_ids, prob_rows, agg,
                  worker_rows, worker_columns, task_rows, proc.stderr, dist_rows, summary)


_KEYWORDS = ("binary", "classes", "workers", "train_gold", "init_workers", "fix_workers", "skills", "missing_skill",
             "task_column", "worker_column", "label_column")


def check_options(options):
    """Raise TypeError if options (keywords of ``aggregate`` other than
    ``labels`` and ``model``) has an unknown name or a value of the wrong
    type."""
    _option_args({k: v for k, v in options.items() if k not in _KEYWORDS})


def _option_args(options):
    args = []
    for name, value in options.items():
        if name not in OPTIONS:
            raise TypeError("aggregate() got an unexpected keyword argument %r; the options are: %s"
                            % (name, ", ".join(sorted(OPTIONS) + list(_KEYWORDS))))
        flag, kind = OPTIONS[name]
        if value is None:
            continue
        if kind is bool:
            if not isinstance(value, bool):
                raise TypeError("%s must be True or False, not %r" % (name, value))
            if value:
                args.append(flag)
            continue
        if kind is int:
            if isinstance(value, bool) or not isinstance(value, int) and not _is_integral(value):
                raise TypeError("%s must be an int, not %r" % (name, value))
            text = str(int(value))
        elif kind is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)) and not _is_real(value):
                raise TypeError("%s must be a number, not %r" % (name, value))
            text = repr(float(value))
        elif kind is list:
            if isinstance(value, str):
                text = value
            elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                text = ",".join(value)
            else:
                raise TypeError("%s must be a list of model names or a comma-separated str, not %r" % (name, value))
        else:
            if not isinstance(value, str):
                raise TypeError("%s must be a str, not %r" % (name, value))
            text = value
        args += [flag, text]
    return args


def _is_integral(v):
    # numpy integers and the like
    return hasattr(v, "__index__")


def _is_real(v):
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return not isinstance(v, str)


def _run(cmd, stdout=False):
    """Run the CLI; keep its standard output only if stdout is set."""
    return subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE if stdout else subprocess.DEVNULL,
                          stderr=subprocess.PIPE, encoding="utf-8", errors="replace")


def _message(stderr, returncode):
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    for ln in reversed(lines):
        if ln.startswith("consensus: "):
            return ln
    if lines:
        return lines[-1]
    return "consensus fit exited with status %d and no message" % returncode


def _locate(message, path, describe, multiline, what="labels"):
    """Replace the temporary file's name and line in a message of the CLI
    by the row of the input, the labels or what it names (by the input's
    name only when a value holds a line break, which shifts the lines)."""
    prefix = "consensus: " + path + ":"
    if not message.startswith(prefix):
        return message.replace(path, "the " + what)
    m = re.match(r"(\d+): (.*)", message[len(prefix):], re.DOTALL)
    if m is None or multiline:
        return "consensus: the %s (as CSV)" % what + message[len(prefix) - 1:]
    return "consensus: %s: %s" % (describe(int(m.group(1)) - 2), m.group(2))


def _lookup(back, text, role, path):
    try:
        return back[text]
    except KeyError:
        raise ConsensusError("%s: %s %r is not in the input (a wrapper bug; please report it)"
                             % (os.path.basename(path), role, text)) from None


def _open_output(path):
    """Open a table the CLI should have written at path. A binary that
    exited without error but wrote no table, or an empty one (a program
    other than consensus, a wrapper that failed silently), raises
    ConsensusError naming the table, not the temporary path."""
    what = os.path.splitext(os.path.basename(path))[0]
    try:
        if os.path.getsize(path) > 0:
            return open(path, newline="", encoding="utf-8")
        problem = "an empty %s table" % what
    except FileNotFoundError:
        problem = "no %s table" % what
    raise ConsensusError("the consensus binary exited without an error but wrote %s; is binary= or CONSENSUS_BIN "
                         "the consensus program?" % problem)


def _read_consensus(path, back_task):
    with _open_output(path) as f:
        r = csv.reader(f)
        header = next(r)
        # task, label, p_<class>... and, for the models with both answers
        # (vb-ds), q_<class>... for the same classes in the same order.
        ps = [h for h in header[2:] if h.startswith("p_")]
        qs = header[2 + len(ps):]
        if header[:2] != ["task", "label"] or not ps or (qs and [h[2:] for h in qs] != [h[2:] for h in ps]
                                                         or not all(h.startswith("q_") for h in qs)):
            raise ConsensusError("%s: unexpected header %r" % (os.path.basename(path), header))
        classes = [h[2:] for h in ps]
        k = len(ps)
        task_ids, prob_rows, dist_rows, agg = [], [], [] if qs else None, {}
        for row in r:
            task = _lookup(back_task, row[0], "task", path)
            task_ids.append(task)
            agg[task] = row[1]
            prob_rows.append([float(x) for x in row[2:2 + k]])
            if qs:
                dist_rows.append([float(x) for x in row[2 + k:]])
    return classes, task_ids, prob_rows, dist_rows, agg


def _read_table(path, key, back):
    """Read a worker or task table: the key column maps back to the input's
    values, ``labels`` is an int and every other column a float."""
    with _open_output(path) as f:
        r = csv.reader(f)
        header = next(r)
        if header[0] != key:
            raise ConsensusError("%s: unexpected header %r" % (os.path.basename(path), header))
        kinds = [float] * len(header)
        kinds[0] = None
        for i, h in enumerate(header):
            if h == "labels":
                kinds[i] = int
        rows = []
        for row in r:
            rec = {}
            for h, kind, cell in zip(header, kinds, row):
                rec[h] = _lookup(back, cell, key, path) if kind is None else kind(cell)
            rows.append(rec)
    return header, rows
